package conform

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A run tells its Progress of every case: one line per finished case, the
// first case first, then the rest longest wait first.
func TestLineProgress(t *testing.T) {
	only, err := SelectCases(Cases(), []string{"clean", "crlf", "truncated"})
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	opt := Options{Folder: agentFolder, Cases: only, Format: chatFormat, Timeout: slow * 10 * time.Second, Parallel: 1,
		Agent: testAgentFunc(agentGood), Progress: LineProgress(&lines)}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`\([0-9.]+m?s\)`).ReplaceAllString(lines.String(), "(D)")
	want := "conform: 1/3 clean SUCCESS (D)\nconform: 2/3 truncated SUCCESS (D)\nconform: 3/3 crlf SUCCESS (D)\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}
}

// The terminal's status line: counts, the cases running longest first with
// their time, what a stall case waits for, cut to statusWidth runes.
func TestTerminalProgressStatus(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	var out strings.Builder
	p := newTerminalProgress(&out, func() time.Time { return now })
	cases := Cases()
	byID := func(id string) Case {
		for _, c := range cases {
			if c.ID == id {
				return c
			}
		}
		t.Fatalf("no case %s", id)
		return Case{}
	}
	p.Started(byID("clean"), now.Add(-3*time.Second))
	p.Finished(Result{Case: byID("clean"), Status: Success, Duration: 3 * time.Second}, 1, 30)
	p.Started(byID("fault_stall"), now.Add(-41*time.Second))
	p.Started(byID("crlf"), now.Add(-2*time.Second))
	want := "1/30 done, 1 SUCCESS · running: fault_stall 41s (waits for the agent to give up on a silent stream), crlf 2s"
	if got := p.status(); got != want {
		t.Errorf("status:\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(out.String(), "\r\x1b[Kconform: 1/30 clean SUCCESS (3s)\n") {
		t.Errorf("the finished case's line is not written over the status line:\n%q", out.String())
	}
	for _, id := range []string{"index_plus_1", "index_minus_1", "interleaved_calls", "args_one_rune"} {
		p.Started(byID(id), now.Add(-time.Second))
	}
	if got := []rune(p.status()); len(got) != statusWidth || got[statusWidth-1] != '…' {
		t.Errorf("a long status line is %d runes, want it cut to %d with an ellipsis: %q", len(got), statusWidth, string(got))
	}
}

// Stop ends the redraw and leaves the status line cleared.
func TestTerminalProgressStop(t *testing.T) {
	var out strings.Builder
	p := NewTerminalProgress(&out)
	p.Started(Cases()[0], time.Now())
	p.Stop()
	if !strings.HasSuffix(out.String(), "\r\x1b[K") || !strings.Contains(out.String(), "0/0 done · running: clean 0s") {
		t.Errorf("terminal output %q: want the status line drawn, then cleared", out.String())
	}
}
