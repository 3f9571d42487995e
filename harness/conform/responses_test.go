package conform

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness"
)

func TestResponsesAgentsFailExactlyTheirCases(t *testing.T) {
	// reachesResults are the cases whose conversation reaches the tool
	// results with the test agents: every benign quirk, bad_args, and the 429
	// they wait out (they give up on a 500, a stall and a reset).
	var reachesResults []string
	for _, c := range ResponsesCases() {
		if c.Expect == ExpectSame || c.Expect == ExpectBadArgs || c.Fault == Fault429 {
			reachesResults = append(reachesResults, c.ID)
		}
	}
	if len(reachesResults) != 17 {
		t.Fatalf("%d cases reach the tool results, want the clean turn, 14 benign quirks, bad_args and the 429: %v", len(reachesResults), reachesResults)
	}
	// The naive merger keeps reading after the first response.completed, so
	// a second response in the stream becomes part of its turn.
	itemIDOut := append(append([]string{}, reachesResults[:len(reachesResults)-1]...), "responses_second_response", "responses_fault_429")
	checkAgents(t, OpenAIResponses, []agentCase{
		{reason: "a correct Responses agent that waits out a 429 passes every case",
			mode: respAgentGood, want: map[Status][]string{}},
		{reason: "items found by the id output_item.added gave them and arguments only from the deltas: every quirk that moves an id or the arguments, and the second response",
			mode: respAgentByItemID, want: map[Status][]string{Failure: {"responses_added_by_call_id", "responses_args_only_in_done",
				"responses_args_only_in_item_done", "responses_never_announced", "responses_ids_rotate", "responses_second_response"}}},
		{reason: "response.completed's output taken as the turn (openai-node's final response): an empty or reordered output, and the second response",
			mode: respAgentCompleted, want: map[Status][]string{Failure: {"responses_completed_empty", "responses_completed_reordered", "responses_second_response"}}},
		{reason: "each call answered with its item id instead of its call_id: every case whose turn reaches the tool results",
			mode: respAgentItemIDOut, want: map[Status][]string{Failure: itemIDOut},
			first: `request 2: message 4 answers "fc_conform_1_0", which is no call of the assistant message`},
	})
}

func TestReadResponses(t *testing.T) {
	tests := []struct {
		reason     string
		body       string
		want       []Message
		assistants int // the turn the request asks for
	}{
		{reason: "instructions are the system message; a string input is one user message",
			body: `{"instructions":"s","input":"hi"}`,
			want: []Message{{Role: "system", Text: "s"}, {Role: "user", Text: "hi"}}, assistants: 0},
		{reason: "function_call items join the assistant message before them; each output answers its call_id",
			body: `{"input":[{"type":"message","role":"user","content":"hi"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]},` +
				`{"type":"function_call","id":"fc_1","call_id":"c1","name":"grep","arguments":"{\"pattern\":\"p\"}"},{"type":"function_call","call_id":"c2","name":"glob","arguments":"{}"},` +
				`{"type":"function_call_output","call_id":"c1","output":"x"},{"type":"function_call_output","call_id":"c2","output":"y"}]}`,
			want: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "a", Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{"pattern":"p"}`}, {ID: "c2", Name: "glob", Arguments: `{}`}}},
				{Role: "tool", CallID: "c1"}, {Role: "tool", CallID: "c2"}}, assistants: 1},
		{reason: "calls with no assistant text are an assistant message of their own; a message item without type counts; reasoning items are skipped",
			body: `{"input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]},{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","call_id":"c1","name":"grep","arguments":"{}"},` +
				`{"type":"function_call_output","call_id":"c1","output":"x"},{"type":"function_call","call_id":"c2","name":"grep","arguments":"{}"}]}`,
			want: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{}`}}},
				{Role: "tool", CallID: "c1"}, {Role: "assistant", Calls: []Call{{ID: "c2", Name: "grep", Arguments: `{}`}}}}, assistants: 2},
	}
	for _, tt := range tests {
		r, err := OpenAIResponses.Read([]byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if diff := cmp.Diff(tt.want, r.Messages); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
		if got := r.assistants(); got != tt.assistants {
			t.Errorf("%s: %d assistant messages, want %d", tt.reason, got, tt.assistants)
		}
	}
	for _, bad := range []string{`{"input":7}`, `{"model":"m"}`, `[`} {
		if _, err := OpenAIResponses.Read([]byte(bad)); !errors.Is(err, ErrNotARequest) {
			t.Errorf("%s: got %v, want ErrNotARequest", bad, err)
		}
	}
	r, err := OpenAIResponses.Read([]byte(`{"model":"m","stream":true,"input":[],"tools":[{"type":"web_search"},` + string(testResponsesTools)[1:] + `}`))
	if err != nil {
		t.Fatal(err)
	}
	checkTestTools(t, r) // function tools only
}

// A stall or reset on a Responses stream breaks it inside the second
// function_call item, after its first non-empty arguments delta.
func TestResponsesCutPoint(t *testing.T) {
	first, err := OpenAIResponses.Read([]byte(`{"model":"m","stream":true,"input":[],"tools":` + string(testResponsesTools) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	conv, err := probeResponsesConversation(first, nil)
	if err != nil {
		t.Fatal(err)
	}
	events := harness.ParseSSE(conv.turns[0])
	n, err := responsesCutPoint(events)
	if err != nil {
		t.Fatal(err)
	}
	last := events[n-1].Data
	if !strings.Contains(last, `"type":"response.function_call_arguments.delta"`) || !strings.Contains(last, `"item_id":"fc_conform_1_1"`) || strings.Contains(last, `"delta":""`) {
		t.Errorf("the cut keeps %d of %d events, the last %s; want the first non-empty delta of fc_conform_1_1 (the second call)", n, len(events), last)
	}
	if _, err := agent.MergeResponsesStream(strings.NewReader(string(harness.FormatSSE(events[:n], "\n")))); !errors.Is(err, agent.ErrTruncatedStream) {
		t.Errorf("the cut stream merges with %v, want ErrTruncatedStream", err)
	}
	if _, err := responsesCutPoint(harness.ParseSSE(conv.turns[1])); !errors.Is(err, harness.ErrQuirkNotApplicable) {
		t.Errorf("the conclusion has no call: got %v, want ErrQuirkNotApplicable", err)
	}
}
