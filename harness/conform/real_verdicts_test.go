package conform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The policies for what real coding agents do (docs/conform.md, "What conform finds
// in real coding agents"), each on the agent built to meet it.
func TestRealAgentBehaviours(t *testing.T) {
	benign := []string{"clean", "index_plus_1", "index_minus_1", "interleaved_calls", "args_one_rune", "args_split_escapes",
		"ids_dropped", "id_every_piece", "name_every_piece", "no_index", "all_index_0", "finish_stop", "crlf",
		"comments", "no_done", "content_parts", "several_choices", "name_in_pieces", "args_cumulative", "args_repeated_at_end",
		"bad_args", "comments+no_done", "comments+args_one_rune", "args_split_escapes+crlf", "echo_signature", "echo_reasoning"}
	broken := []string{"midstream_error", "truncated", "finish_length", "fault_stall", "fault_reset"}
	checkAgents(t, chatFormat, []agentCase{
		{reason: "side requests (a preflight, a title without tools first, a JSON classifier without a stream, a memory request with other tools last) are answered in their format and never judged",
			mode: agentTitle, want: map[Status][]string{}},
		{reason: "a non-streamed retry after a stream it cannot read is answered whole and judged: a WARNING on a benign shape, a pass after a broken stream or a fault",
			mode: agentFallback, want: map[Status][]string{Warning: {"comments", "comments+no_done", "comments+args_one_rune"}}},
		{reason: "keeping the calls that completed before the break, and running them, is a WARNING",
			mode: agentSalvage, want: map[Status][]string{Warning: broken}},
		{reason: "resuming from the delivered text with no call is a WARNING",
			mode: agentResume, want: map[Status][]string{Warning: broken}},
		{reason: "the text re-sent as [object Object] fails every case that reaches the tool results",
			mode: agentGarble, want: map[Status][]string{Failure: benign}},
		{reason: "asking for the conclusion again and again, then exiting 0, fails",
			mode: agentAskAgain, want: map[Status][]string{Failure: {"content_parts"}}},
		{reason: "exiting 0 without printing the answer it prints in the clean case fails",
			mode: agentMute, want: map[Status][]string{Failure: {"crlf"}}},
	})
}

// The verdicts' words: what each policy says the agent did.
func TestRealAgentDetails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode, id string
		status   Status
		details  string
	}{
		{agentSalvage, "truncated", Warning, "request 2 keeps 1 completed call of 2 and drops the cut one; it ran it from a stream that then failed; exit 0"},
		{agentResume, "fault_reset", Warning, `request 2 resumes from the delivered text ("Let me look at two things at once.") with no call: nothing cut was sent; exit 0`},
		{agentFallback, "comments", Warning, `2 calls re-sent and answered; exit 0; but it read no stream of this shape: requests 2, 4 asked again with "stream": false`},
		{agentFallback, "truncated", Success, `gave up on the broken stream, asked again with "stream": false (request 2), read the whole turn and finished; exit 0`},
		{agentGarble, "clean", Failure, `request 2: the assistant message's text is "[object Object]": the text parts were turned into a string with JavaScript's String(), not joined`},
		{agentLoop, "several_choices", Failure, `request 2 sends "(another answer)" back to the model: text of the second answer the stream carries (several_choices), which no correct merger keeps; conform stopped the agent there`},
		{agentAskAgain, "content_parts", Failure, "the agent asked for the conclusion 5 times (requests 2, 3, 4, 5, 6) and then exited 0: it never took the answer it was given"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.id, func(t *testing.T) {
			t.Parallel()
			only, err := SelectCases(Cases(), []string{tt.id})
			if err != nil {
				t.Fatal(err)
			}
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.mode), Cases: only, Timeout: slow * 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if r := results[0]; r.Status != tt.status || r.Details != tt.details {
				t.Errorf("%s %q\nwant %s %q", r.Status, r.Details, tt.status, tt.details)
			}
			if tt.mode == agentLoop && len(results[0].Requests) != 2 {
				t.Errorf("the looping agent sent %d requests, want 2: conform stops it at the request that decides", len(results[0].Requests))
			}
		})
	}
}

// A stall case runs under its own limit, and says when the agent gave up:
// the good agent gives up on a stream silent for 0.8 s, past -timeout's
// 0.5 s (times slow under -race).
func TestStallTimeoutIsTheStallCaseLimit(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"fault_stall", "clean"})
	patience, timeout := slow*800*time.Millisecond, slow*500*time.Millisecond
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFuncWaiting(agentGood, patience), Cases: only,
		Timeout: timeout, StallTimeout: slow * 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := results[1]
	// The measured time: about the agent's patience (measured from the
	// request's arrival, so it may differ a little), past -timeout, below
	// the stall limit.
	m := regexp.MustCompile(`^gave up on the stalled stream after ([0-9a-z.]+):`).FindStringSubmatch(r.Details)
	var after time.Duration
	if m != nil {
		after, _ = time.ParseDuration(m[1])
	}
	if r.Status != Success || r.TimedOut || after < patience*7/8 || after >= slow*20*time.Second {
		t.Errorf("%s %q (timed out %v), want SUCCESS gave up on the stalled stream after about %s", r.Status, r.Details, r.TimedOut, patience)
	}
}

// At -timeout the agent gets SIGTERM first: a wrapper's trap runs (and
// removes its temporary home) before SIGKILL.
func TestTimeoutSendsSIGTERMFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	only, _ := SelectCases(Cases(), []string{"clean"})
	cmd := Command{Path: "/bin/sh", Args: []string{"-c", `trap 'echo cleaned > "$0"; exit 143' TERM; sleep 30 & wait`, filepath.Join(dir, "trap")}}
	if _, err := Run(context.Background(), Options{Folder: agentFolder, Command: cmd, Cases: only, Timeout: 500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "trap")); err != nil || string(got) != "cleaned\n" {
		t.Errorf("the agent's TERM trap did not run: %q, %v", got, err)
	}
}

// The printed answer is compared with the first case's: an agent that
// prints the conclusion in clean must print it in every case it passes.
func TestConclusionPrinted(t *testing.T) {
	cases, err := SelectCases(Cases(), []string{"clean", "crlf", "comments"})
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentMute), Cases: cases, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, r := range results {
		got = append(got, fmt.Sprintf("%s %s %s", r.Case.ID, r.Status, r.Details))
	}
	want := []string{
		"clean SUCCESS 2 calls re-sent and answered; exit 0",
		`crlf FAILURE the agent exited 0 without printing the conclusion "Both calls answered: done.", which it prints in clean: its answer was lost`,
		"comments SUCCESS 2 calls re-sent and answered; exit 0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
