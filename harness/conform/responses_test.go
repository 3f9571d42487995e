package conform

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/responses"
)

func TestResponsesAgentsFailExactlyTheirCases(t *testing.T) {
	// reachesResults are the cases whose conversation reaches the tool
	// results with the test agents: every benign quirk, bad_args, the
	// reasoning echo, and the 429 they wait out (they give up on a 500, a
	// stall and a reset).
	var reachesResults []string
	for _, c := range ResponsesCases() {
		if c.WebSocket != "" {
			continue // the test agents post over HTTP: the WebSocket cases are SKIPPED
		}
		if c.Expect == ExpectSame || c.Expect == ExpectBadArgs || c.Expect == ExpectEcho || c.Fault == Fault429 {
			reachesResults = append(reachesResults, c.ID)
		}
	}
	if len(reachesResults) != 20 {
		t.Fatalf("%d cases reach the tool results, want the clean turn, 16 benign quirks, bad_args, the echo and the 429: %v", len(reachesResults), reachesResults)
	}
	// naive are the cases the naive merger fails: it finds items only by the
	// id output_item.added gave them, takes arguments only from the deltas,
	// and reads on after the first response.completed, so a second response
	// becomes part of its turn.
	naive := []string{"responses_added_by_call_id", "responses_args_only_in_done", "responses_args_only_in_item_done",
		"responses_never_announced", "responses_ids_rotate", "responses_second_response"}
	itemIDOut := slices.Insert(slices.Clone(reachesResults), len(reachesResults)-2, "responses_second_response")
	// every test agent posts over HTTP: the clean case finds so, and the
	// WebSocket cases are SKIPPED without a run (websocket_test.go runs them)
	var wsCases []string
	for _, c := range websocketCases() {
		wsCases = append(wsCases, c.ID)
	}
	agents := []agentCase{
		{reason: "a correct Responses agent that waits out a 429 passes every case",
			mode: respAgentGood, want: map[Status][]string{},
			echo: "2 calls re-sent and answered, calls sent by call_id without reasoning items (valid: the model does not see its reasoning again); exit 0"},
		{reason: "the naive merger: every quirk that moves an id or the arguments, and the second response",
			mode: respAgentByItemID, want: map[Status][]string{Failure: naive}},
		{reason: "the naive merger, sending each call with its item id and the reasoning item before them, as the API requires",
			mode: respAgentIDs, want: map[Status][]string{Failure: naive},
			echo: "2 calls re-sent and answered, the reasoning item sent back before its calls; exit 0"},
		{reason: "the naive merger, sending each call with its item id but no reasoning item: the naive cases and the echo",
			mode: respAgentIDsNoReasoning, want: map[Status][]string{Failure: append(slices.Clone(naive), "responses_echo_reasoning")},
			echo: `request 2: call 1 (read_file) is sent with its item id "fc_conform_1_0" but without the reasoning item "rs_conform_1" before it (OpenAI answers 400: it was provided without its required reasoning item)`},
		{reason: "response.completed's output taken as the turn (openai-node's final response): an empty output and the second response fail; a reordered output is re-sent in its order, which the API takes",
			mode: respAgentCompleted, want: map[Status][]string{Failure: {"responses_completed_empty", "responses_second_response"}}},
		{reason: "a good merger that stops reading at the first response.completed: the second response is left out, which is right",
			mode: respAgentFirstDone, want: map[Status][]string{}},
		{reason: "the text message sent after the calls, as response.completed lists them: the API pairs outputs by call_id, so every case passes",
			mode: respAgentTextAfter, want: map[Status][]string{}},
		{reason: "running the calls of a stream that broke after every output_item.done (Codex) is salvage; running the call a stall or a reset cut inside its arguments, as if whole, fails",
			mode: respAgentSalvage, want: map[Status][]string{Warning: {"responses_truncated", "responses_failed", "responses_incomplete", "responses_error_event"},
				Failure: {"responses_fault_stall", "responses_fault_reset"}}},
		{reason: "each call answered with its item id instead of its call_id: every case whose turn reaches the tool results",
			mode: respAgentItemIDOut, want: map[Status][]string{Failure: itemIDOut},
			first: `request 2: message 4 answers "fc_conform_1_0", which is no call of the assistant message; conform stopped the agent there`},
	}
	for i := range agents {
		agents[i].want[Skipped] = wsCases
	}
	checkAgents(t, responsesFormat, agents)
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
			want: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "a", Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{"pattern":"p"}`, ItemID: "fc_1"}, {ID: "c2", Name: "glob", Arguments: `{}`}}},
				{Role: "tool", CallID: "c1", Text: "x"}, {Role: "tool", CallID: "c2", Text: "y"}}, assistants: 1},
		{reason: "an assistant message item right after the calls joins them (response.completed's order); the outputs still answer by call_id",
			body: `{"input":[{"type":"message","role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"grep","arguments":"{}"},` +
				`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]},{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"x"}]}]}`,
			want: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "a", Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{}`}}},
				{Role: "tool", CallID: "c1", Text: "x"}}, assistants: 1},
		{reason: "calls with no assistant text are an assistant message of their own, with the reasoning item before them; a message item without type counts",
			body: `{"input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]},{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","call_id":"c1","name":"grep","arguments":"{}"},` +
				`{"type":"function_call_output","call_id":"c1","output":"x"},{"type":"function_call","call_id":"c2","name":"grep","arguments":"{}"}]}`,
			want: []Message{{Role: "user", Text: "hi"}, {Role: "assistant", Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{}`}}, ReasoningIDs: []string{"rs_1"}},
				{Role: "tool", CallID: "c1", Text: "x"}, {Role: "assistant", Calls: []Call{{ID: "c2", Name: "grep", Arguments: `{}`}}}}, assistants: 2},
		{reason: "reasoning items before or among the assistant items belong to that assistant message",
			body:       `{"input":[{"type":"reasoning","id":"rs_1"},{"type":"message","role":"assistant","content":"a"},{"type":"reasoning","id":"rs_2"},{"type":"function_call","call_id":"c1","name":"grep","arguments":"{}"}]}`,
			want:       []Message{{Role: "assistant", Text: "a", ReasoningIDs: []string{"rs_1", "rs_2"}, Calls: []Call{{ID: "c1", Name: "grep", Arguments: `{}`}}}},
			assistants: 1},
		{reason: "a custom tool's call and output read as a call (its input the arguments) and a tool message",
			body: `{"input":[{"type":"custom_tool_call","id":"ctc_1","call_id":"c1","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"},` +
				`{"type":"function_call","call_id":"c2","name":"grep","arguments":"{}"},{"type":"custom_tool_call_output","call_id":"c1","output":"done"},{"type":"function_call_output","call_id":"c2","output":"x"}]}`,
			want: []Message{{Role: "assistant", Calls: []Call{{ID: "c1", Name: "apply_patch", Arguments: "*** Begin Patch\n*** End Patch", ItemID: "ctc_1"}, {ID: "c2", Name: "grep", Arguments: `{}`}}},
				{Role: "tool", CallID: "c1", Text: "done"}, {Role: "tool", CallID: "c2", Text: "x"}}, assistants: 1},
	}
	for _, tt := range tests {
		r, err := responsesFormat.Read([]byte(tt.body))
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
	lone, err := responsesFormat.Read([]byte(`{"input":[{"type":"reasoning","id":"rs_1"},{"type":"function_call_output","call_id":"c1","output":"x"},{"type":"reasoning","id":"rs_2"}]}`))
	if err != nil || !slices.Equal(lone.LoneReasoning, []string{"rs_1", "rs_2"}) {
		t.Errorf("reasoning items no assistant item follows: %q, %v; want rs_1 and rs_2", lone.LoneReasoning, err)
	}
	for _, bad := range []string{`{"input":7}`, `{"model":"m"}`, `[`} {
		if _, err := responsesFormat.Read([]byte(bad)); !errors.Is(err, ErrNotARequest) {
			t.Errorf("%s: got %v, want ErrNotARequest", bad, err)
		}
	}
	r, err := responsesFormat.Read([]byte(`{"model":"m","stream":true,"input":[],"tools":[{"type":"web_search"},{"type":"custom","name":"apply_patch","format":{"type":"grammar"}},` + string(testResponsesTools)[1:] + `}`))
	if err != nil {
		t.Fatal(err)
	}
	checkTestTools(t, r) // function tools only
}

// A stall or reset on a Responses stream breaks it inside the second
// function_call item, after its first non-empty arguments delta.
func TestResponsesCutPoint(t *testing.T) {
	conv := probeFor(t, responsesFormat, `{"model":"m","stream":true,"input":[],"tools":`+string(testResponsesTools)+`}`)
	events := sse.Parse(conv.turns[0])
	n, err := responsesCutPoint(events)
	if err != nil {
		t.Fatal(err)
	}
	last := events[n-1].Data
	if !strings.Contains(last, `"type":"response.function_call_arguments.delta"`) || !strings.Contains(last, `"item_id":"fc_conform_1_1"`) || strings.Contains(last, `"delta":""`) {
		t.Errorf("the cut keeps %d of %d events, the last %s; want the first non-empty delta of fc_conform_1_1 (the second call)", n, len(events), last)
	}
	if _, err := responses.Merge(strings.NewReader(string(sse.Format(events[:n], "\n")))); !errors.Is(err, agent.ErrTruncatedStream) {
		t.Errorf("the cut stream merges with %v, want ErrTruncatedStream", err)
	}
	if _, err := responsesCutPoint(sse.Parse(conv.turns[1])); !errors.Is(err, quirk.ErrNotApplicable) {
		t.Errorf("the conclusion has no call: got %v, want ErrQuirkNotApplicable", err)
	}
}

// responses_echo_reasoning's stream merges into the clean turn's text and
// calls, with no warning: the reasoning item comes first in the stream and
// in response.completed's output, and the sequence numbers stay in order.
// A stream with no response.created is left alone.
func TestAddReasoningItem(t *testing.T) {
	conv := probeFor(t, responsesFormat, `{"model":"m","stream":true,"input":[],"tools":`+string(testResponsesTools)+`}`)
	clean, err := responses.Merge(strings.NewReader(string(conv.turns[0])))
	if err != nil {
		t.Fatal(err)
	}
	body, err := addReasoningItem(conv.turns[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := responses.Merge(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	if diff := cmp.Diff([]any{clean.Text, clean.ToolCalls, []string(nil)}, []any{got.Text, got.ToolCalls, got.Warnings}); diff != "" {
		t.Errorf("text, calls, warnings (-clean +got):\n%s", diff)
	}
	events := sse.Parse(body)
	var seqs []int
	for _, ev := range events {
		var e struct {
			Seq *int `json:"sequence_number"`
		}
		if json.Unmarshal([]byte(ev.Data), &e) == nil && e.Seq != nil {
			seqs = append(seqs, *e.Seq)
		}
	}
	for i, s := range seqs {
		if s != i {
			t.Fatalf("sequence numbers %v, want 0 to %d", seqs, len(seqs)-1)
		}
	}
	wantAdded := `{"item":{"id":"rs_conform_1","summary":[],"type":"reasoning"},"output_index":0,"sequence_number":2,"type":"response.output_item.added"}`
	if events[2].Name != "response.output_item.added" || events[2].Data != wantAdded {
		t.Errorf("event 3: %s %s\nwant the reasoning item: %s", events[2].Name, events[2].Data, wantAdded)
	}
	last := events[len(events)-1].Data
	if !strings.Contains(last, `"output":[{"id":"rs_conform_1","summary":[{"text":"Two reads at once will answer this.","type":"summary_text"}],"type":"reasoning"},{`) {
		t.Errorf("response.completed does not list the reasoning item first: %s", last)
	}
	if reasoningItemID(probeResponseID) != "rs_conform_1" {
		t.Errorf("the probe's reasoning item is %q, want the stream's rs_conform_1", reasoningItemID(probeResponseID))
	}
	if _, err := addReasoningItem([]byte("data: {\"choices\":[]}\n\ndata: [DONE]\n\n"), 0); !errors.Is(err, quirk.ErrNotApplicable) {
		t.Errorf("a chat stream: %v, want ErrQuirkNotApplicable", err)
	}
}

func TestCheckReasoningItems(t *testing.T) {
	calls := func(itemIDs ...string) []Call {
		var cs []Call
		for i, id := range itemIDs {
			cs = append(cs, Call{ID: "c" + string(rune('1'+i)), Name: "grep", Arguments: "{}", ItemID: id})
		}
		return cs
	}
	tests := []struct {
		reason string
		r      Request
		m      Message
		sent   bool
		want   string // "" for no failure
	}{
		{"calls by call_id, no reasoning", Request{}, Message{Calls: calls("", "")}, false, ""},
		{"item ids with the reasoning item", Request{}, Message{Calls: calls("fc_1", "fc_2"), ReasoningIDs: []string{"rs_conform_1"}}, true, ""},
		{"item ids without the reasoning item", Request{}, Message{Calls: calls("", "fc_2")}, false,
			`request 2: call 2 (grep) is sent with its item id "fc_2" but without the reasoning item "rs_conform_1" before it (OpenAI answers 400: it was provided without its required reasoning item)`},
		{"another reasoning item", Request{}, Message{Calls: calls("", ""), ReasoningIDs: []string{"rs_other"}}, false,
			`request 2: the tool-call turn sends back the reasoning item "rs_other", not "rs_conform_1"`},
		{"a reasoning item with nothing after it", Request{LoneReasoning: []string{"rs_conform_1"}}, Message{Calls: calls("", "")}, false,
			`request 2: the reasoning item "rs_conform_1" is sent with no assistant item after it (OpenAI answers 400: it was provided without its required following item)`},
	}
	for _, tt := range tests {
		v, sent, ok := checkReasoningItems(2, tt.r, tt.m, "rs_conform_1")
		if ok != (tt.want == "") || v.details != tt.want || sent != tt.sent {
			t.Errorf("%s: ok %v, sent %v, details %q; want sent %v, %q", tt.reason, ok, sent, v.details, tt.sent, tt.want)
		}
	}
}

// An assistant message sent as an item_reference to the stored response
// (the Vercel AI SDK's responses model) carries its text by reference: the
// calls after it join it, and the text check has nothing to compare.
func TestReadResponsesItemReference(t *testing.T) {
	body := `{"model":"m","input":[{"role":"user","content":"go"},{"type":"item_reference","id":"msg_1"},` +
		`{"type":"function_call","call_id":"call_1","name":"glob","arguments":"{}"},{"type":"function_call_output","call_id":"call_1","output":"ok"}]}`
	r, err := readResponses([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 3 || r.Messages[1].Role != "assistant" || !r.Messages[1].TextByReference || len(r.Messages[1].Calls) != 1 {
		t.Fatalf("messages = %+v, want user, assistant (text by reference, one call), tool", r.Messages)
	}
	if v, ok := checkText(r, 1, 2, probeText); !ok {
		t.Errorf("checkText: %s", v.details)
	}
	r.Messages[1].TextByReference = false
	if v, ok := checkText(r, 1, 2, probeText); ok || !strings.Contains(v.details, "drops the text") {
		t.Errorf("without the reference: %v %q, want the drop", ok, v.details)
	}
}

// responses_second_response passes both an agent that stops at the first
// response.completed and one that refuses the stream, each saying which it
// did; one that reads on fails.
func TestResponsesSecondResponse(t *testing.T) {
	cases, err := SelectCases(ResponsesCases(), []string{"responses_clean", "responses_second_response"})
	if err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[string]string{
		respAgentFirstDone: "SUCCESS went on with the first response's turn, leaving the second one out: 2 calls re-sent and answered; exit 0",
		respAgentGood:      "SUCCESS gave up with exit 1 after 1 attempt (stderr: test agent: a second response in one stream: resp_conform_1_again after resp_conform_1 (event ",
		respAgentByItemID:  "FAILURE request 2: ",
	} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(mode), Format: responsesFormat, Cases: cases, Timeout: slow * 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(results[1].Status) + " " + results[1].Details; !strings.HasPrefix(got, want) {
				t.Errorf("%s:\n%s\nwant it to start\n%s", mode, got, want)
			}
		})
	}
}
