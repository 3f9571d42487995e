package conform

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// statuses lists the cases of each status other than SUCCESS.
func statuses(results []Result) map[Status][]string {
	out := map[Status][]string{}
	for _, r := range results {
		if r.Status != Success {
			out[r.Status] = append(out[r.Status], r.Case.ID)
		}
	}
	return out
}

func TestBrokenAgentsFailExactlyTheirCases(t *testing.T) {
	checkAgents(t, chatFormat, []agentCase{
		{reason: "a correct agent that waits out a 429 passes every case",
			mode: agentGood, want: map[Status][]string{}},
		{reason: "calls kept at the array position the index names: a hole at 0, a panic at -1, calls merged when the index is missing or shared; content read as a string only (content parts are an error) and every choice merged (the second answer's call too); the first name piece kept, argument pieces concatenated, finish_reason ignored; its own merge keeps no thought signature and no reasoning, so it echoes neither",
			mode: agentPositional, want: map[Status][]string{
				Failure: {"index_plus_1", "index_minus_1", "no_index", "all_index_0", "content_parts", "several_choices",
					"name_in_pieces", "args_cumulative", "args_repeated_at_end", "finish_length",
					"echo_signature", "echo_reasoning"},
				Warning: {"fault_429"}}},
		{reason: "a stream cut short taken for a finished turn: the complete first call is run and sent on",
			mode: agentDropsTrunc, want: map[Status][]string{
				Failure: {"truncated"},
				Warning: {"fault_429"}}},
		{reason: "every call answered twice: every case whose turn reaches the tool results",
			mode: agentTwice, want: map[Status][]string{
				Failure: {"clean", "index_plus_1", "index_minus_1", "interleaved_calls", "args_one_rune", "args_split_escapes",
					"ids_dropped", "id_every_piece", "name_every_piece", "no_index", "all_index_0", "finish_stop", "crlf",
					"comments", "no_done", "content_parts", "several_choices", "name_in_pieces", "args_cumulative",
					"args_repeated_at_end", "bad_args", "comments+no_done", "comments+args_one_rune", "args_split_escapes+crlf",
					"echo_signature", "echo_reasoning"},
				Warning: {"fault_429"}}},
	})
}

// probeFor is the probe's conversation in format f for a first request
// whose body is body.
func probeFor(t *testing.T, f Format, body string) *conversation {
	t.Helper()
	first, err := f.Read([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	conv, err := f.build(first, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return conv
}

// agentCase is a test agent and the status it must get in each case of a
// catalog (SUCCESS where want names none).
type agentCase struct {
	reason string
	mode   string
	want   map[Status][]string
	first  string // the first case's details, when given
	echo   string // the details of the format's echo case, when given
}

// checkAgents runs each test agent in process over format's catalog, all
// at once (and at once with the other tests that call it: the runs wait on
// timers, not on the CPU, so they are started here rather than left to
// -parallel), and compares the statuses they get with want, one subtest
// per agent. fault_429's Retry-After is testRetryAfter.
func checkAgents(t *testing.T, format Format, tests []agentCase) {
	t.Helper()
	t.Parallel()
	type run struct {
		results []Result
		err     error
	}
	runs := make([]chan run, len(tests))
	for i, tt := range tests {
		runs[i] = make(chan run, 1)
		go func() {
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.mode), Format: format, retryAfter: testRetryAfter,
				Parallel: 8 / slow, Timeout: slow * 10 * time.Second, StallTimeout: slow * 10 * time.Second})
			runs[i] <- run{results, err}
		}()
	}
	for i, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			r := <-runs[i]
			results, err := r.results, r.err
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, statuses(results)); diff != "" {
				t.Errorf("%s\nstatuses (-want +got):\n%s\n%s", tt.reason, diff, table(results))
			}
			if tt.first != "" && results[0].Details != tt.first {
				t.Errorf("%s: %s details %q\nwant %q", tt.reason, results[0].Case.ID, results[0].Details, tt.first)
			}
			for _, r := range results {
				if tt.echo != "" && r.Case.Tier == TierEcho && r.Details != tt.echo {
					t.Errorf("%s: %s details %q\nwant %q", tt.reason, r.Case.ID, r.Details, tt.echo)
				}
			}
		})
	}
}

// testRetryAfter is fault_429's Retry-After in the tests that run whole
// catalogs: the agents that wait it out wait this long (TestFault429Timing
// keeps the real one).
const testRetryAfter = 100 * time.Millisecond

func table(results []Result) string {
	var b strings.Builder
	WriteTable(&b, results)
	return b.String()
}

func TestBadCommands(t *testing.T) {
	t.Parallel()
	two, err := SelectCases(Cases(), []string{"clean", "truncated"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason  string
		command Command
		details string // every case's details start with this
	}{
		{"a command that does not exist", Command{Path: "/nonexistent/agent"},
			"the command did not start: fork/exec /nonexistent/agent: no such file or directory"},
		{"an agent that exits at once", testAgentCommand(t, agentExit),
			"the agent exited with code 3 without sending a request to the case's URL (stderr: test agent: giving up at once)"},
		{"an agent that exits 0 without calling the server", testAgentCommand(t, agentSilent),
			"the agent exited with code 0 without sending a request to the case's URL"},
		{"an agent that posts elsewhere", testAgentCommand(t, agentWrongPath),
			"the agent exited with code 1 without sending a request to the case's URL (stderr: test agent: status 404 Not Found); it called the server elsewhere, which answered 404: no route for POST /s/CASE/v1/completions: use POST .../v1/chat/completions, .../v1/messages, .../v1/responses, .../v1beta/models/MODEL:streamGenerateContent, .../model/MODEL/invoke-with-response-stream, .../v1/projects/PROJECT/locations/global/publishers/anthropic/models/MODEL:streamRawPredict or .../model/MODEL/converse-stream, or GET .../v1/models"},
		{"an agent that hangs", testAgentCommand(t, agentHang),
			"the agent sent no request and was still running after -timeout 200ms: killed"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), slow*40*time.Second)
			defer cancel()
			timeout := slow * 10 * time.Second // a slow start under load is no failure
			if strings.Contains(tt.details, "-timeout") {
				timeout = 200 * time.Millisecond // killed there, started or not
			}
			results, err := Run(ctx, Options{Folder: agentFolder, Command: tt.command, Cases: two, Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range results {
				got = append(got, r.Case.ID+" "+string(r.Status)+": "+r.Details)
			}
			want := []string{"clean FAILURE: " + strings.ReplaceAll(tt.details, "CASE", "clean"),
				"truncated FAILURE: clean fails too (read it first), so this may follow from it: " + strings.ReplaceAll(tt.details, "CASE", "truncated")}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
			if ctx.Err() != nil {
				t.Error("conform itself hung")
			}
		})
	}
}

func TestProbeRefusesAgentsWithoutReadTools(t *testing.T) {
	t.Parallel()
	clean, _ := SelectCases(Cases(), []string{"clean", "crlf"})
	_, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentWriter), Cases: clean, Timeout: slow * 5 * time.Second})
	want := "no tool conform can tell is read-only: the agent offers the tools write_file, run_shell, and no name says it only reads (read, view, cat, list, ls, glob, find, grep, search) without a word that says it acts (write, edit, run, shell, web, fetch, agent, tool, ...): name the tools conform may call with -call NAME[=ARGS_JSON]"
	if !errors.Is(err, ErrNoReadOnlyTool) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	_, err = Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentGood), Cases: clean, Timeout: slow * 5 * time.Second,
		Calls: []CallSpec{{Name: "view_file"}}})
	want = "the agent offers no such tool: -call view_file, but the agent offers the tools write_file, read_file, grep"
	if !errors.Is(err, ErrUnknownCall) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestCaseIDsAreUnique(t *testing.T) {
	var ids []string
	for _, c := range Cases() {
		if slices.Contains(ids, c.ID) {
			t.Errorf("case %s twice", c.ID)
		}
		ids = append(ids, c.ID)
	}
}

// An interrupted run stops its agents and starts no more cases.
func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	deadline, stop := context.WithTimeout(context.Background(), 20*time.Second)
	defer stop()
	_, err := Run(ctx, Options{Folder: agentFolder, Command: testAgentCommand(t, agentHang), Timeout: time.Hour, Parallel: 2})
	if err == nil || err.Error() != "interrupted: context canceled" {
		t.Errorf("err = %v, want interrupted: context canceled", err)
	}
	if deadline.Err() != nil {
		t.Error("the interrupted run did not return in time")
	}
}

// A 429 retried before its Retry-After, or not retried at all, is a
// WARNING; waited out, a SUCCESS.
func TestFault429Timing(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"fault_429"})
	for _, tt := range []struct {
		mode    string
		status  Status
		details string // prefix
	}{
		{agentGood, Success, "retried and finished (3 requests)"},
		{agentEager, Warning, "retried "},
		{agentTwice, Warning, "gave up on a 429 with Retry-After: 1 (exit 1) instead of waiting and retrying (stderr: test agent: status 429 Too Many Requests)"},
	} {
		results, err := Run(context.Background(), Options{Folder: agentFolder, Command: testAgentCommand(t, tt.mode), Cases: only, Timeout: slow * 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		r := results[0]
		if r.Status != tt.status || !strings.HasPrefix(r.Details, tt.details) {
			t.Errorf("%s: %s %q, want %s %q...", tt.mode, r.Status, r.Details, tt.status, tt.details)
		}
		if tt.mode == agentEager && !strings.HasSuffix(r.Details, "after the 429, before its Retry-After: 1") {
			t.Errorf("%s: %q", tt.mode, r.Details)
		}
	}
}

// An agent with no timeout on a stalled stream is killed at
// -stall-timeout: a FAILURE that says so, and conform returns.
func TestFaultStallWithoutTimeout(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"fault_stall"})
	timeout := slow * time.Second
	results, err := Run(context.Background(), Options{Folder: agentFolder, Command: testAgentCommand(t, agentPatient), Cases: only, Timeout: timeout / 2, StallTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	want := "the agent did not give up on a stalled stream within -stall-timeout " + timeout.String() + ": killed"
	if r := results[0]; r.Status != Failure || r.Details != want || !r.TimedOut {
		t.Errorf("%s %q (timed out %v), want FAILURE %q", r.Status, r.Details, r.TimedOut, want)
	}
}
