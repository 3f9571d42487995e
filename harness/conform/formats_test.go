package conform

import (
	"testing"

	"github.com/agentvcr/agentvcr/wire"
)

// conform speaks every wire format, in wire.All's order, each found by its
// -api name: a format registered in package wire without a conform Format
// (its reader and catalog) fails here.
func TestFormatsFollowWire(t *testing.T) {
	formats := Formats()
	all := wire.All()
	if len(formats) != len(all) {
		t.Fatalf("conform speaks %d formats, package wire lists %d", len(formats), len(all))
	}
	for i, w := range all {
		if formats[i].Format != w {
			t.Errorf("Formats()[%d] is %s, wire.All()[%d] is %s", i, formats[i].Name, i, w.Name)
		}
		f, err := FormatByName(w.Name)
		if err != nil || f.Format != w || len(f.Cases()) == 0 || f.Read == nil {
			t.Errorf("FormatByName(%q) = %v, %v: want the format with a reader and a catalog", w.Name, f.Format, err)
		}
	}
}
