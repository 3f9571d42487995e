package scenarios

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// categoryName is how a scenario file is named: category first.
var categoryName = regexp.MustCompile(`^(accept|demo|stream|tool|harness|live)_[a-z0-9_]+\.txtar$`)

// TestScenarioConventions: every scenario is named category first and opens
// with a comment saying what it reproduces.
func TestScenarioConventions(t *testing.T) {
	files, err := filepath.Glob("*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Errorf("%d scenarios, want at least 40", len(files))
	}
	for _, f := range files {
		if !categoryName.MatchString(f) {
			t.Errorf("%s: name must be <category>_<what>.txtar with category accept, demo, stream, tool, harness or live", f)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(string(b), "\n"); !strings.HasPrefix(first, "# ") || len(first) < 20 {
			t.Errorf("%s: first line must be a comment saying what the scenario reproduces, got %q", f, first)
		}
	}
}

func TestRecordAllowed(t *testing.T) {
	full := map[string]string{"OPENAI_BASE_URL": "http://gw/v1", "OPENAI_API_KEY": "k", "AGENTVCR_MODEL": "m"}
	tests := []struct {
		reason string
		vars   map[string]string
		want   string
	}{
		{"all set", full, ""},
		{"in CI", map[string]string{"CI": "true", "OPENAI_BASE_URL": "x", "OPENAI_API_KEY": "k", "AGENTVCR_MODEL": "m"},
			"-record is refused when CI=true: cassettes are recorded by a person, against a gateway they chose"},
		{"no key", map[string]string{"OPENAI_BASE_URL": "x", "AGENTVCR_MODEL": "m"},
			"-record needs OPENAI_API_KEY: set OPENAI_BASE_URL, OPENAI_API_KEY and AGENTVCR_MODEL to the gateway to record from"},
	}
	for _, tt := range tests {
		err := recordAllowed(func(k string) string { return tt.vars[k] })
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}
