package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCaptureSeesNoProcessEnv: a captured run sees only the variables it is
// given, never the test process's.
func TestCaptureSeesNoProcessEnv(t *testing.T) {
	t.Setenv("AGENTVCR_LANG", "en")
	tests := []struct {
		reason string
		getenv func(string) string
		want   string
	}{
		{"nil Getenv: empty environment, zh", nil, "没有名为 nosuch 的工具。可用的工具是：glob、grep、read_file\n"},
		{"Vars", Vars(map[string]string{"AGENTVCR_LANG": "en"}), "There is no tool named nosuch. Available tools: glob, grep, read_file\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := Capture(Env{Dir: t.TempDir(), Getenv: tt.getenv}, "tool", "nosuch", "{}")
		if diff := cmp.Diff(tt.want, stdout); diff != "" || code != 0 || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q, stdout (-want +got):\n%s", tt.reason, code, stderr, diff)
		}
	}
}
