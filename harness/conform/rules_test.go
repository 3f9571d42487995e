package conform

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// runCases runs the agent of mode (in process, or as a real process when
// real is set) on the cases ids of the chat catalog and returns "id
// STATUS details" per case.
func runCases(t *testing.T, mode string, real bool, ids ...string) []string {
	t.Helper()
	return runFormatCases(t, chatFormat, mode, real, ids...)
}

// runFormatCases is runCases in format f's catalog.
func runFormatCases(t *testing.T, f Format, mode string, real bool, ids ...string) []string {
	t.Helper()
	only, err := SelectCases(f.Cases(), ids)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Folder: agentFolder, Cases: only, Format: f, Timeout: slow * 10 * time.Second}
	if real {
		opt.Command = testAgentCommand(t, mode)
	} else {
		opt.Agent = testAgentFunc(mode)
	}
	results, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		got = append(got, fmt.Sprintf("%s %s %s", r.Case.ID, r.Status, r.Details))
	}
	return got
}

// Each rule on the agent built to meet it, in process and as a real
// process: the verdicts, word for word.
func TestRulesAgainstTheCleanRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason string
		mode   string
		ids    []string
		want   []string
	}{
		{reason: "calls re-sent as merged, but run from glued pieces: the tool results are not the clean run's",
			mode: ruleSplitBrain, ids: []string{"clean", "args_cumulative", "args_one_rune"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				"args_one_rune SUCCESS 2 calls re-sent and answered; exit 0",
				`args_cumulative FAILURE request 2: call 1 (read_file {"path":"probe \"q\" \\ 中文"}) is re-sent as merged, but its tool result is not the one the clean run got for it: the tool did not run as it did on the clean stream (result "Invalid input for tool read_file: JSON parsing failed")`,
			}},
		{reason: "the second choice's words printed as the answer fail, naming them",
			mode: ruleDecoyPrint, ids: []string{"clean", "several_choices", "crlf"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				"crlf SUCCESS 2 calls re-sent and answered; exit 0",
				`several_choices FAILURE the agent printed "(another answer)", text of the second answer the stream carries (several_choices), which no correct merger keeps`,
			}},
		{reason: "the cut call kept raw and answered with a parse error is an honest refusal",
			mode: ruleRefuse, ids: []string{"clean", "truncated", "midstream_error", "finish_length"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				"midstream_error WARNING request 2 keeps 1 completed call of 2 and sends the cut one back refused: not run, its result says why; exit 0",
				"truncated WARNING request 2 keeps 1 completed call of 2 and sends the cut one back refused: not run, its result says why; exit 0",
				"finish_length WARNING request 2 keeps 1 completed call of 2 and sends the cut one back refused: not run, its result says why; exit 0",
			}},
		{reason: "the cut call, or the call whose arguments are not JSON, routed to a tool of the agent's own with the parse error is an honest refusal",
			mode: ruleInvalidTool, ids: []string{"clean", "truncated", "bad_args"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				`bad_args WARNING request 2 sends the call whose arguments are not JSON back refused, as a call of its own tool "invalid" whose arguments say why: not run; 2 calls re-sent and answered; exit 0`,
				"truncated WARNING request 2 keeps 1 completed call of 2 and sends the cut one back refused: not run, its result says why; exit 0",
			}},
		{reason: "the cut call reset to {} and answered by the tool's validation error misleads the model",
			mode: ruleReset, ids: []string{"clean", "truncated"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				`truncated FAILURE request 2 sends on the broken turn: call 2 (grep {}) was cut by the stream, and is sent back with other arguments and a result that does not say so ("Error: required property 'pattern' is missing"): the model is misled about what it sent`,
			}},
		{reason: "parallel calls re-sent in reverse order, each answered by its id, lose nothing",
			mode: ruleReversed, ids: []string{"clean", "index_minus_1", "interleaved_calls"},
			want: []string{
				"clean SUCCESS 2 calls re-sent and answered; exit 0",
				"index_minus_1 SUCCESS 2 calls re-sent and answered; exit 0",
				"interleaved_calls SUCCESS 2 calls re-sent and answered; exit 0",
			}},
	}
	for _, tt := range tests {
		for _, real := range []bool{false, true} {
			name := tt.mode + "/in-process"
			if real {
				name = tt.mode + "/process"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				if diff := cmp.Diff(tt.want, runCases(t, tt.mode, real, tt.ids...)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
				}
			})
		}
	}
}

// The Responses rules as real processes: the text message after the calls
// is the same turn, and the calls of a stream that broke after each
// output_item.done are salvage.
func TestResponsesRulesAsProcesses(t *testing.T) {
	t.Parallel()
	got := runFormatCases(t, responsesFormat, respAgentTextAfter, true, "responses_clean", "responses_completed_reordered")
	want := []string{
		"responses_clean SUCCESS 2 calls re-sent and answered; exit 0",
		"responses_completed_reordered SUCCESS 2 calls re-sent and answered; exit 0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the text after the calls (-want +got):\n%s", diff)
	}
	got = runFormatCases(t, responsesFormat, respAgentSalvage, true, "responses_clean", "responses_truncated", "responses_fault_reset")
	want = []string{
		"responses_clean SUCCESS 2 calls re-sent and answered; exit 0",
		"responses_truncated WARNING request 2 keeps all 2 calls, each delivered whole before the stream broke; it ran them from a stream that then failed; exit 0",
		`responses_fault_reset FAILURE request 2 sends on the broken turn: call 2 (grep {"patt) was cut by the stream, and is answered with the result the whole call gets on the clean stream: it ran as if whole`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("salvage (-want +got):\n%s", diff)
	}
}
