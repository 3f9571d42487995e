package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRecordBadInput: each bad -record input is one line and exit 2
// (the CI refusal exit 1), and the cassette is left as it was.
func TestServeRecordBadInput(t *testing.T) {
	dir := t.TempDir()
	cassette := "---\nversion: 1\ninteractions: []\n"
	for _, name := range []string{"rec.yaml", "locked.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(cassette), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "locked.yaml"), 0o444)
	up := "http://127.0.0.1:1/v1"
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"an unknown mode", nil, []string{"-cassette", "rec.yaml", "-record", "sometimes"}, 2, `-record "sometimes": want none, new or all`},
		{"new without -upstream", nil, []string{"-cassette", "rec.yaml", "-record", "new"}, 2,
			"-record new forwards what the cassette misses to a gateway: give -upstream URL (its base URL, e.g. https://api.openai.com/v1)"},
		{"-upstream alone", nil, []string{"-cassette", "rec.yaml", "-upstream", up}, 2,
			"-upstream is where -record new or all forwards: give -record new (or all), or leave -upstream out"},
		{"new on no cassette", nil, []string{"-cassette", "missing.yaml", "-upstream", up, "-record", "new"}, 2,
			"-record new adds to missing.yaml, which does not exist: record it with -record all first"},
		{"an embedded cassette", nil, []string{"-cassette", "demo", "-upstream", up, "-record", "new"}, 2,
			"-record new writes one cassette: give exactly one -cassette FILE.yaml"},
		{"a file not writable", nil, []string{"-cassette", "locked.yaml", "-upstream", up, "-record", "new"}, 2,
			"-record new: locked.yaml is not writable: nothing would be saved"},
		{"a folder that is not there", nil, []string{"-cassette", "gone/new.yaml", "-upstream", up, "-record", "all"}, 2,
			"-record all: cannot write beside gone/new.yaml: no such file or directory"},
		{"in CI", map[string]string{"CI": "true"}, []string{"-cassette", "rec.yaml", "-upstream", up, "-record", "new"}, 1,
			"-record new is refused when CI=true: it talks to a live gateway; record on your machine and commit the cassette (-record none replays only)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := Env{Dir: dir, Getenv: func(k string) string { return tt.env[k] }}
			code, stdout, stderr := Capture(env, append([]string{"serve"}, tt.args...)...)
			if code != tt.code || stdout != "" || stderr != "agentvcr serve: "+tt.want+"\n" {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant exit %d, stderr %q", code, stdout, stderr, tt.code, "agentvcr serve: "+tt.want+"\n")
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "rec.yaml")); string(got) != cassette {
				t.Errorf("rec.yaml changed: %q", got)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %s; want rec.yaml and locked.yaml only", strings.Join(names, ", "))
	}
}
