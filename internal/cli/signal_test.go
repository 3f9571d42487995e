package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The signal tests run this test binary again as the agentvcr command: with
// AGENTVCR_SIGNAL_CHILD set, TestMain runs Main on AGENTVCR_SIGNAL_ARGS with
// the process's own Env (signals handled), and every request of the run is
// held: "ctx" holds it until the run is cancelled, "stuck" forever.
func TestMain(m *testing.M) {
	if mode := os.Getenv("AGENTVCR_SIGNAL_CHILD"); mode != "" {
		env := ProcessEnv()
		env.WrapTransport = func(http.RoundTripper) http.RoundTripper { return holdTransport(mode) }
		os.Exit(Main(env, strings.Fields(os.Getenv("AGENTVCR_SIGNAL_ARGS"))))
	}
	os.Exit(m.Run())
}

type holdTransport string

func (h holdTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	fmt.Fprintln(os.Stderr, "HOLDING")
	if h == "stuck" {
		select {}
	}
	<-req.Context().Done()
	return nil, req.Context().Err()
}

// child starts the command in a subprocess whose temporary folder is tmp,
// and returns its stderr lines as they come.
func child(t *testing.T, ctx context.Context, mode, tmp string, args ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0])
	// CI is cleared: the child records (refused when CI=true), and .ci/run
	// sets CI=true for the whole run.
	cmd.Env = append(os.Environ(), "AGENTVCR_SIGNAL_CHILD="+mode, "AGENTVCR_SIGNAL_ARGS="+strings.Join(args, " "), "TMPDIR="+tmp, "NO_COLOR=1", "CI=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return cmd, lines
}

// await reads lines until want, failing after the test's guard.
func await(t *testing.T, ctx context.Context, lines <-chan string, want string) []string {
	t.Helper()
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the command ended before printing %q; it printed %q", want, seen)
			}
			seen = append(seen, l)
			if l == want {
				return seen
			}
		case <-ctx.Done():
			t.Fatalf("no %q within the guard; printed %q", want, seen)
		}
	}
}

// rest collects the remaining stderr lines and the exit code.
func rest(t *testing.T, cmd *exec.Cmd, lines <-chan string) ([]string, int) {
	t.Helper()
	var out []string
	for l := range lines {
		out = append(out, l)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out, cmd.ProcessState.ExitCode()
}

func tempEntries(t *testing.T, tmp string) []string {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimRightFunc(e.Name(), func(r rune) bool { return r >= '0' && r <= '9' }))
	}
	return names
}

// The first SIGINT or SIGTERM cancels the run: the held request returns,
// the run's cleanup removes the temporary sandbox and the cassette copy, and
// the command exits 130 or 143 with one line. A second signal exits at once
// even when the run does not stop, and removes the temporary folders too.
func TestSignals(t *testing.T) {
	tests := []struct {
		reason   string
		mode     string
		signals  []os.Signal
		wantCode int
		wantErr  []string
	}{
		{"one SIGINT cancels the run", "ctx", []os.Signal{os.Interrupt}, 130,
			[]string{"agentvcr run: interrupted (SIGINT): the run was cancelled"}},
		{"one SIGTERM cancels the run the same way", "ctx", []os.Signal{syscall.SIGTERM}, 143,
			[]string{"agentvcr run: interrupted (SIGTERM): the run was cancelled"}},
		{"a second SIGINT exits at once when the run does not stop", "stuck", []os.Signal{os.Interrupt, os.Interrupt}, 130, nil},
		{"SIGTERM then SIGINT: the first signal's code", "stuck", []os.Signal{syscall.SIGTERM, os.Interrupt}, 143, nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tmp := filepath.Join(t.TempDir(), "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd, lines := child(t, ctx, tt.mode, tmp, "run")
			await(t, ctx, lines, "HOLDING")
			if diff := cmp.Diff([]string{"agentvcr-sandbox-"}, tempEntries(t, tmp)); diff != "" {
				t.Fatalf("temporary folders while the run is held (-want +got):\n%s", diff)
			}
			for i, sig := range tt.signals {
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					await(t, ctx, lines, "agentvcr run: "+signalName(sig)+": stopping (again to quit at once)")
				}
			}
			got, code := rest(t, cmd, lines)
			if ctx.Err() != nil {
				t.Fatal("the command did not end within the guard")
			}
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("stderr after the signals (-want +got):\n%s", diff)
			}
			if left := tempEntries(t, tmp); len(left) > 0 {
				t.Errorf("temporary folders left behind: %q", left)
			}
		})
	}
}
