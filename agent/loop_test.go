package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

// testTools returns a registry with one tool, echo, that returns its text;
// onRun, when set, runs first with the call's context.
func testTools(t *testing.T, lang tools.Lang, onRun func(ctx context.Context)) *tools.Registry {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(ws, lang)
	err = reg.Register(tools.Tool{
		Name:        "echo",
		Description: "Return the text given. Example: {\"text\":\"hi\"}.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text to return."}},"required":["text"],"additionalProperties":false}`),
		ReadOnly:    true,
		Run: func(ctx context.Context, ws *tools.Workspace, args json.RawMessage) (string, error) {
			if onRun != nil {
				onRun(ctx)
			}
			var a struct{ Text string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			return a.Text + "\nsecond line", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func start() []Message {
	return []Message{{Role: RoleSystem, Content: SystemPrompt(tools.ZH)}, {Role: RoleUser, Content: "why are the tests red?"}}
}

func TestLoopRunsToolsThenAnswers(t *testing.T) {
	g := newTestGateway(t,
		reply{body: sseCalls("Looking.", "c1", "echo", `{"text":"中文"}`, "c2", "edit_file", `{"path":"a"}`)},
		reply{body: sseCalls("The bug is a / b.")},
	)
	reg := testTools(t, tools.ZH, nil)
	var events []Event
	l := &Loop{Client: g.client(), Tools: reg, OnEvent: func(e Event) { events = append(events, e) }}
	msgs, err := l.Run(context.Background(), start())
	if err != nil {
		t.Fatal(err)
	}
	unknown := reg.Execute(context.Background(), tools.Call{ID: "c2", Name: "edit_file", Arguments: `{"path":"a"}`})
	wantMsgs := append(start(),
		Message{Role: RoleAssistant, Content: "Looking.", ToolCalls: []ToolCall{call("c1", "echo", `{"text":"中文"}`), call("c2", "edit_file", `{"path":"a"}`)}},
		Message{Role: RoleTool, ToolCallID: "c1", Content: "中文\nsecond line"},
		Message{Role: RoleTool, ToolCallID: "c2", Content: unknown.Content},
		Message{Role: RoleAssistant, Content: "The bug is a / b."},
	)
	if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	c1, c2 := &EventCall{ID: "c1", Name: "echo", Arguments: `{"text":"中文"}`}, &EventCall{ID: "c2", Name: "edit_file", Arguments: `{"path":"a"}`}
	wantEvents := []Event{
		{Kind: KindText, Turn: 1, Text: "Looking."},
		{Kind: KindCall, Turn: 1, Call: c1},
		{Kind: KindResult, Turn: 1, Call: c1, Result: &EventResult{Chars: 14, Summary: "中文", OriginalChars: 14}},
		{Kind: KindCall, Turn: 1, Call: c2},
		{Kind: KindResult, Turn: 1, Call: c2, Result: &EventResult{Chars: unknown.Chars(), IsError: true, Summary: unknown.Content, OriginalChars: unknown.Chars()}},
		{Kind: KindTurnEnd, Turn: 1, FinishReason: "tool_calls", ToolCalls: 2},
		{Kind: KindText, Turn: 2, Text: "The bug is a / b."},
		{Kind: KindTurnEnd, Turn: 2, FinishReason: "stop"},
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// The whole messages array is re-sent on every request.
	reqs := g.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if diff := cmp.Diff(start(), reqs[0].Request.Messages); diff != "" {
		t.Errorf("request 1 messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantMsgs[:5], reqs[1].Request.Messages); diff != "" {
		t.Errorf("request 2 messages (-want +got):\n%s", diff)
	}
	body, _ := requestBody("test-model", wantMsgs[:5], reg.Definitions())
	if diff := cmp.Diff(string(body), reqs[1].Body); diff != "" {
		t.Errorf("request 2 body (-want +got):\n%s", diff)
	}
}

func TestEventJSON(t *testing.T) {
	events := []Event{
		{Kind: KindCall, Turn: 1, Call: &EventCall{ID: "c1", Name: "glob", Arguments: `{"pattern":"**/*.js"}`}},
		{Kind: KindResult, Turn: 1, Call: &EventCall{ID: "c1", Name: "glob", Arguments: "{}"}, Result: &EventResult{Chars: 8054, IsError: false, Summary: "a.js", Truncated: true, OriginalChars: 20000}},
		{Kind: KindText, Turn: 2, Text: "done"},
		{Kind: KindTurnEnd, Turn: 2, FinishReason: "stop"},
	}
	want := []string{
		`{"kind":"call","turn":1,"call":{"id":"c1","name":"glob","arguments":"{\"pattern\":\"**/*.js\"}"}}`,
		`{"kind":"result","turn":1,"call":{"id":"c1","name":"glob","arguments":"{}"},"result":{"chars":8054,"is_error":false,"summary":"a.js","truncated":true,"original_chars":20000}}`,
		`{"kind":"text","turn":2,"text":"done"}`,
		`{"kind":"turn_end","turn":2,"finish_reason":"stop"}`,
	}
	var got []string
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event JSON (-want +got):\n%s", diff)
	}
}

func TestFirstLine(t *testing.T) {
	long := ""
	for i := 0; i < 120; i++ {
		long += "字"
	}
	tests := []struct {
		reason, in, want string
	}{
		{"the first line only", "src/calc.js（第 1–13 行，共 13 行）\n1\tfunction", "src/calc.js（第 1–13 行，共 13 行）"},
		{"CRLF ends the line too", "a\r\nb", "a"},
		{"a long line is cut to 100 runes with an ellipsis", long, long[:99*3] + "…"},
		{"exactly 100 runes stay whole", long[:100*3], long[:100*3]},
		{"empty content", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, firstLine(tt.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoopTurnLimit(t *testing.T) {
	calls := sseCalls("", "c1", "echo", `{"text":"again"}`)
	g := newTestGateway(t, reply{body: calls}, reply{body: calls}, reply{body: calls})
	l := &Loop{Client: g.client(), Tools: testTools(t, tools.EN, nil), MaxTurns: 2}
	msgs, err := l.Run(context.Background(), start())
	if !errors.Is(err, ErrTurnLimit) {
		t.Fatalf("err = %v, want ErrTurnLimit", err)
	}
	if diff := cmp.Diff("agent: turn limit of 2 reached without a final answer", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if n := len(g.requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if len(msgs) != 6 {
		t.Errorf("%d messages, want 6 (2 start + 2 turns of assistant and result)", len(msgs))
	}
	if err := CheckMessages(msgs); err != nil {
		t.Errorf("messages invalid after the turn limit: %v", err)
	}
}

func TestLoopDefaultTurnLimitIsTen(t *testing.T) {
	calls := sseCalls("", "c1", "echo", `{"text":"again"}`)
	var replies []reply
	for i := 0; i < 11; i++ {
		replies = append(replies, reply{body: calls})
	}
	g := newTestGateway(t, replies...)
	_, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(context.Background(), start())
	if err == nil || err.Error() != "agent: turn limit of 10 reached without a final answer" {
		t.Fatalf("err = %v", err)
	}
	if n := len(g.requests()); n != 10 {
		t.Errorf("%d requests, want 10", n)
	}
}

// Every error path leaves messages that pass CheckMessages, and a cut-off
// turn adds nothing.
func TestLoopErrorsLeaveMessagesValid(t *testing.T) {
	first := reply{body: sseCalls("", "c1", "echo", `{"text":"one"}`)}
	afterFirst := append(start(),
		Message{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "echo", `{"text":"one"}`)}},
		Message{Role: RoleTool, ToolCallID: "c1", Content: "one\nsecond line"})
	partial := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c2","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n"
	tests := []struct {
		reason   string
		second   reply
		wantErr  string
		wantType func(error) bool
	}{
		{
			reason:   "an HTTP error on the second request",
			second:   reply{status: http.StatusUnauthorized, body: `{"error":"bad key"}`},
			wantErr:  `agent: request 2: gateway returned 401 Unauthorized: {"error":"bad key"}`,
			wantType: func(err error) bool { var he *HTTPError; return errors.As(err, &he) },
		},
		{
			reason:   "a stream error after a partial tool call",
			second:   reply{body: partial + `data: {"error":{"message":"overloaded"}}` + "\n\n"},
			wantErr:  "agent: request 2: stream error: overloaded",
			wantType: func(err error) bool { var se *StreamError; return errors.As(err, &se) },
		},
		{
			reason:   "a stream cut off inside a tool call",
			second:   reply{body: partial},
			wantErr:  "agent: request 2: stream ended without a finish_reason or [DONE]",
			wantType: func(err error) bool { return errors.Is(err, ErrTruncatedStream) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			g := newTestGateway(t, first, tt.second)
			msgs, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(context.Background(), start())
			if err == nil || err.Error() != tt.wantErr || !tt.wantType(err) {
				t.Fatalf("err = %v, want %s", err, tt.wantErr)
			}
			if diff := cmp.Diff(afterFirst, msgs); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if err := CheckMessages(msgs); err != nil {
				t.Errorf("CheckMessages: %v", err)
			}
		})
	}
}

func TestLoopCancelWhileToolsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := newTestGateway(t, reply{body: sseCalls("", "c1", "echo", `{"text":"one"}`, "c2", "echo", `{"text":"two"}`)})
	var kinds []EventKind
	l := &Loop{Client: g.client(), Tools: testTools(t, tools.ZH, func(context.Context) { cancel() }),
		OnEvent: func(e Event) { kinds = append(kinds, e.Kind) }}
	msgs, err := l.Run(ctx, start())
	if !errors.Is(err, context.Canceled) || err.Error() != "agent: run cancelled: context canceled" {
		t.Fatalf("err = %v, want a wrapped context.Canceled", err)
	}
	want := append(start(),
		Message{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "echo", `{"text":"one"}`), call("c2", "echo", `{"text":"two"}`)}},
		Message{Role: RoleTool, ToolCallID: "c1", Content: "one\nsecond line"},
		Message{Role: RoleTool, ToolCallID: "c2", Content: "已取消：这个工具调用没有执行"},
	)
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]EventKind{KindCall, KindResult, KindTurnEnd}, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if err := CheckMessages(msgs); err != nil {
		t.Errorf("CheckMessages: %v", err)
	}
}

func TestLoopCancelDuringRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	partial := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n"
	g := newTestGateway(t, reply{body: partial, hold: func(r *http.Request) {
		cancel()
		<-r.Context().Done()
	}})
	msgs, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(ctx, start())
	if !errors.Is(err, context.Canceled) || err.Error() != "agent: run cancelled: context canceled" {
		t.Fatalf("err = %v, want a wrapped context.Canceled", err)
	}
	if diff := cmp.Diff(start(), msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestLoopCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := newTestGateway(t)
	msgs, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(ctx, start())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(g.requests()) != 0 || len(msgs) != 2 {
		t.Errorf("%d requests, %d messages; want 0 and 2", len(g.requests()), len(msgs))
	}
}

func TestLoopRefusesInvalidMessages(t *testing.T) {
	g := newTestGateway(t)
	bad := append(start(), Message{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "echo", "{}")}})
	msgs, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(context.Background(), bad)
	if !errors.Is(err, ErrInvalidMessages) {
		t.Fatalf("err = %v, want ErrInvalidMessages", err)
	}
	if diff := cmp.Diff(`agent: before request 1: invalid messages: message 2: tool call "c1" has no result`, err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if len(g.requests()) != 0 || len(msgs) != 3 {
		t.Errorf("%d requests, %d messages; want 0 and 3", len(g.requests()), len(msgs))
	}
}

// finish_reason tool_calls with no call merged is a tool turn that asks for
// nothing: the run ends there instead of re-sending the same conversation.
func TestLoopToolTurnWithoutCallsEnds(t *testing.T) {
	body := `data: {"choices":[{"index":0,"delta":{"content":"Let me check."},"finish_reason":"tool_calls"}]}` + "\n\n"
	g := newTestGateway(t, reply{body: body})
	msgs, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(context.Background(), start())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(append(start(), Message{Role: RoleAssistant, Content: "Let me check."}), msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestLoopDoesNotAliasCallerMessages(t *testing.T) {
	g := newTestGateway(t, reply{body: sseCalls("done")})
	in := make([]Message, 2, 10)
	copy(in, start())
	out, err := (&Loop{Client: g.client(), Tools: testTools(t, tools.ZH, nil)}).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || cap(in) != 10 || in[:3][2].Role != "" {
		t.Errorf("the caller's backing array was written to")
	}
}

// The loop shows reasoning as an event of its own, never as text, and echoes
// what the next request must carry: each call's extra_content exactly, and
// the reasoning_content of a tool-call turn; reasoning that came another way
// (delta.reasoning) and a final answer's reasoning are not sent back.
func TestLoopEchoesAndReasoning(t *testing.T) {
	turn1 := `data: {"choices":[{"index":0,"delta":{"reasoning_content":"need ","content":null}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"reasoning_content":"the echo"}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"},"extra_content":{"google":{"thought_signature":"c2ln/1=="}}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n"
	turn2 := `data: {"choices":[{"index":0,"delta":{"reasoning":"other field ","content":[{"type":"thinking","thinking":"parts"}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"","tool_calls":[{"index":0,"id":"c2","type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n"
	turn3 := `data: {"choices":[{"index":0,"delta":{"reasoning_content":"done thinking"}}]}` + "\n\n" + sseCalls("Done.")
	g := newTestGateway(t, reply{body: turn1}, reply{body: turn2}, reply{body: turn3})
	var events []Event
	l := &Loop{Client: g.client(), Tools: testTools(t, tools.EN, nil), OnEvent: func(e Event) {
		if e.Kind == KindReasoning || e.Kind == KindText {
			events = append(events, e)
		}
	}}
	msgs, err := l.Run(context.Background(), start())
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := []Event{
		{Kind: KindReasoning, Turn: 1, Text: "need the echo"},
		{Kind: KindReasoning, Turn: 2, Text: "partsother field "},
		{Kind: KindReasoning, Turn: 3, Text: "done thinking"},
		{Kind: KindText, Turn: 3, Text: "Done."},
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	reqs := g.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	const first = `{"role":"assistant","content":null,"reasoning_content":"need the echo","tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"a\"}"},"extra_content":{"google":{"thought_signature":"c2ln/1=="}}}]}`
	const second = `{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"echo","arguments":"{\"text\":\"b\"}"}}]}`
	for i, want := range []string{first, second} {
		got, err := json.Marshal(reqs[2].Request.Messages[2+2*i])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("assistant message %d in request 3 (-want +got):\n%s", i+1, diff)
		}
	}
	// The final answer keeps its reasoning, which its wire shape leaves out.
	last := msgs[len(msgs)-1]
	if diff := cmp.Diff(Message{Role: RoleAssistant, Content: "Done.", Thinking: []Thinking{{Type: ThinkingText, Text: "done thinking"}}}, last); diff != "" {
		t.Errorf("final message (-want +got):\n%s", diff)
	}
	if got, _ := json.Marshal(last); string(got) != `{"role":"assistant","content":"Done."}` {
		t.Errorf("final message marshals to %s", got)
	}
}
