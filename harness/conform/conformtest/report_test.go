package conformtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/conform/conformtest"
)

// baselineEnv makes TestRunReportsEachCase the go test it runs: that
// test binary, run again, runs conformtest.Run on takesCutStreams over
// reportedCases, with the baseline file it names ("-": none).
const baselineEnv = "CONFORMTEST_CHILD_BASELINE"

// reportedCases: two the broken agent passes, the one it fails, one it
// gives up on.
var reportedCases = []string{"clean", "crlf", "truncated", "midstream_error"}

// Each case is a subtest, as `go test -v` shows it: the case the agent
// fails fails, with the verdict's details and diff; listed in the
// baseline, it is skipped with the baseline's reason; a listed case that
// passes fails as stale. The test binary runs itself as that go test.
func TestRunReportsEachCase(t *testing.T) {
	if path := os.Getenv(baselineEnv); path != "" {
		opt := conformtest.Options{Agent: takesCutStreams(t), Cases: reportedCases, Timeout: 20 * time.Second}
		if path != "-" {
			opt.Baseline = path
		}
		conformtest.Run(t, opt)
		return
	}
	t.Parallel()
	dir := t.TempDir()
	baseline := filepath.Join(dir, "baseline.txt")
	if err := os.WriteFile(baseline, []byte("# a cut turn taken for a finished one\ntruncated\ncrlf # once broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason   string
		baseline string
		want     map[string]string // subtest: PASS, FAIL or SKIP
		output   []string          // in the go test's output; -X and +X: in a diff line of that side
		exit     int
	}{
		{"no baseline", "-", map[string]string{"clean": "PASS", "crlf": "PASS", "truncated": "FAIL", "midstream_error": "PASS"},
			[]string{"the stream ends in the middle of the second call: no finish_reason, no [DONE]: request 2 sends on the broken turn: call 2 (grep {}) was cut by the stream, and is sent back with other arguments and a result that does not say so",
				"-Arguments: `{\"pattern\":\"probe \\\"r\\\" \\\\ 数据\"}`,", `+Arguments: "{}",`}, 1},
		{"a baseline", baseline, map[string]string{"clean": "PASS", "crlf": "FAIL", "truncated": "SKIP", "midstream_error": "PASS"},
			[]string{"expected failure, in the baseline " + baseline + " (a cut turn taken for a finished one): request 2 sends on the broken turn",
				"the baseline " + baseline + " lists crlf (once broken), and it now passes: remove it (SUCCESS: 2 calls re-sent and answered; exit 0)"}, 1},
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(exe, "-test.run=^TestRunReportsEachCase$", "-test.v")
			cmd.Env = append(os.Environ(), baselineEnv+"="+tt.baseline)
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != tt.exit {
				t.Errorf("exit %d (%v), want %d\n%s", code, err, tt.exit, out)
			}
			got := map[string]string{}
			for _, m := range regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): TestRunReportsEachCase/(\S+)`).FindAllStringSubmatch(string(out), -1) {
				got[m[2]] = m[1]
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("subtests (-want +got):\n%s\n%s", diff, out)
			}
			lines := strings.Split(string(out), "\n")
			for _, w := range tt.output {
				if !slices.ContainsFunc(lines, func(l string) bool {
					if sign, text, ok := strings.Cut(w, "Arguments"); ok && (sign == "-" || sign == "+") {
						l = strings.TrimSpace(l) // go-cmp pads its signs with spaces of two kinds
						return strings.HasPrefix(l, sign) && strings.Contains(l, "Arguments"+text)
					}
					return strings.Contains(l, w)
				}) {
					t.Errorf("no line with %q in\n%s", w, out)
				}
			}
		})
	}
}
