package cli

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
)

// TestRunCassetteFileLimit: run -cassette FILE, whose answers are read
// from the file as they are served, still counts them toward
// AGENTVCR_MAX_CASSETTE_MB: a 2 MiB answer is refused under 1 MiB, saying
// how to raise the limit, and replayed under 4.
func TestRunCassetteFileLimit(t *testing.T) {
	ws := t.TempDir()
	if err := demo.WriteSandbox(ws); err != nil {
		t.Fatal(err)
	}
	path := oneReplyCassette(t, t.TempDir(), 2)
	t.Setenv(cassette.MaxBytesEnv, "1")
	code, _, stderr := runIn(ws, nil, "run", "-cassette", path, "-C", ws)
	want := "bad cassette: its interactions expand to more than the limit of 1 MiB (YAML aliases count each time they are used; 1 of 1 interactions counted): if the file is yours, raise the limit with AGENTVCR_MAX_CASSETTE_MB=N (MiB)"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("limit 1 MiB: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	t.Setenv(cassette.MaxBytesEnv, "4")
	code, stdout, stderr := runIn(ws, nil, "run", "-cassette", path, "-C", ws)
	if code != 0 || stderr != "" || len(stdout) < 512<<10 {
		t.Errorf("limit 4 MiB: exit %d, %d bytes out, stderr %q; want 0, the answer's text and nothing", code, len(stdout), stderr)
	}
}
