package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps its failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.fatal = true
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%v", args...) }

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		path   string
		got    string
		update bool
		want   string // the start of the failure, "" for none
	}{
		{"same", path, "one\ntwo\n", false, ""},
		{"different", path, "one\nthree\n", false, path + " differs (-golden +got; go test -update rewrites it, then read the diff):\n"},
		{"missing", filepath.Join(dir, "none.golden"), "x", false, "open " + filepath.Join(dir, "none.golden") + ": no such file or directory (go test -update writes it)"},
		{"update writes a new folder", filepath.Join(dir, "new", "b.golden"), "b\n", true, ""},
	}
	for _, tt := range tests {
		*update = tt.update
		r := &recorder{TB: t}
		Check(r, tt.path, []byte(tt.got))
		*update = false
		got := strings.Join(r.errors, "\n")
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: failure %q, want one starting %q", tt.reason, got, tt.want)
		}
		if tt.update {
			b, err := os.ReadFile(tt.path)
			if err != nil || string(b) != tt.got {
				t.Errorf("%s: file holds %q (%v), want %q", tt.reason, b, err, tt.got)
			}
		}
	}
	// The file a mismatch was found in is left as it was.
	if b, _ := os.ReadFile(path); string(b) != "one\ntwo\n" {
		t.Errorf("a failed comparison changed the golden file to %q", b)
	}
}
