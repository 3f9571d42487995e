package conform

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/wire"
)

// An in-process agent gets the case's variables and nothing else, and
// what it prints and returns is reported like a command's.
func TestAgentFuncGetsTheCaseVariables(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"clean"})
	var got []string
	agent := func(ctx context.Context, env []string, stdout, stderr io.Writer) int {
		got = env
		fmt.Fprintln(stdout, "out")
		fmt.Fprintln(stderr, "giving up")
		return 7
	}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: agent, Cases: only, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	want := "the agent exited with code 7 without sending a request to the case's URL (stderr: giving up)"
	if r.Details != want || r.ExitCode != 7 || string(r.Stdout) != "out\n" || string(r.Stderr) != "giving up\n" {
		t.Errorf("%s %q exit %d stdout %q stderr %q\nwant %q", r.Status, r.Details, r.ExitCode, r.Stdout, r.Stderr, want)
	}
	if !slices.Contains(got, CaseVariable+"=clean") || slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }) {
		t.Errorf("env %q: want the case's variables only", got)
	}
	for _, f := range wire.All() {
		if !slices.Contains(got, f.KeyEnv+"="+DummyKey) {
			t.Errorf("env %q lacks %s", got, f.KeyEnv)
		}
	}
}

// At the timeout the agent's context ends: one that returns then is
// killed at -timeout, as a command is; one that does not return is given
// up after its grace (here shorter than conform's) and said so; a panic
// is exit code 2 with its value and stack on stderr.
func TestAgentFuncEnds(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"clean"})
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	const timeout = 300 * time.Millisecond
	grace := slow * 500 * time.Millisecond
	killed := "the agent sent no request and was still running after -timeout 300ms: killed"
	tests := []struct {
		reason string
		agent  AgentFunc
		exit   int
		stderr string // prefix
	}{
		{"it returns when its context ends", func(ctx context.Context, _ []string, _, _ io.Writer) int { <-ctx.Done(); return 0 }, -1, ""},
		{"it ignores its context", func(context.Context, []string, io.Writer, io.Writer) int { <-release; return 0 }, -1,
			"\n[agentvcr conform: the agent function did not return within " + grace.String() + " of its context's end]\n"},
		{"it panics", func(context.Context, []string, io.Writer, io.Writer) int { panic("boom") }, 2, "panic: boom\n\ngoroutine "},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: tt.agent, Cases: only, Timeout: timeout, funcGrace: grace})
			if err != nil {
				t.Fatal(err)
			}
			r := results[0]
			if r.ExitCode != tt.exit || !strings.HasPrefix(string(r.Stderr), tt.stderr) || r.Status != Failure {
				t.Errorf("%s %q exit %d stderr %q\nwant exit %d stderr %q...", r.Status, r.Details, r.ExitCode, r.Stderr, tt.exit, tt.stderr)
			}
			want := killed
			if tt.stderr != "" {
				want += " (stderr: " + strings.TrimSpace(tt.stderr) + ")"
			}
			if tt.exit == -1 && (r.Details != want || !r.TimedOut) {
				t.Errorf("details %q (timed out %v)\nwant %q", r.Details, r.TimedOut, want)
			}
		})
	}
}
