package cassette

import (
	"strings"
	"testing"
)

// FuzzMissDiffIsBounded: whatever the two bodies, the summary a miss
// prints has at most MaxDiffLines lines (and one saying how many more),
// each bounded; and two bodies that differ give a diff that says so.
func FuzzMissDiffIsBounded(f *testing.F) {
	f.Add(`{"a":1}`, `{"a":2}`, 10)
	f.Add(`{"m":"x"}`, `{"m":"x","pad":"y"}`, 5000)
	f.Add("not json", "not json either", 300)
	f.Fuzz(func(t *testing.T, recorded, sent string, pad int) {
		pad = max(0, min(pad, 1<<16))
		sent += strings.Repeat("z", pad)
		e := &MissError{}
		e.SetNearest(0, KeyOf("POST", "/v1/x", []byte(recorded)), KeyOf("POST", "/v1/x", []byte(sent)))
		lines := strings.Split(strings.TrimSuffix(e.Diff, "\n"), "\n")
		if len(lines) > MaxDiffLines+1 {
			t.Fatalf("%d lines", len(lines))
		}
		for _, l := range lines {
			// cmp quotes and escapes what it shows: at most 6 bytes per byte (\u00XX), plus its prefix
			if len(l) > 6*MaxDiffLineBytes+200 {
				t.Fatalf("a line of %d bytes", len(l))
			}
		}
		if (e.Diff == "") != (e.recorded.Text() == e.sent.Text()) {
			t.Fatalf("diff %q for texts equal=%v", e.Diff, e.recorded.Text() == e.sent.Text())
		}
	})
}
