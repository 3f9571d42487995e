package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

func TestLoopRunsToolsThenAnswers(t *testing.T) {
	g := streamtest.NewGateway(t,
		streamtest.Reply{Body: streamtest.SSECalls("Looking.", "c1", "echo", `{"text":"中文"}`, "c2", "edit_file", `{"path":"a"}`)},
		streamtest.Reply{Body: streamtest.SSECalls("The bug is a / b.")},
	)
	reg := streamtest.Tools(t, tools.ZH, nil)
	var events []agent.Event
	l := &agent.Loop{Client: g.Client(chat.Format), Tools: reg, OnEvent: func(e agent.Event) { events = append(events, e) }}
	msgs, err := l.Run(context.Background(), streamtest.Start())
	if err != nil {
		t.Fatal(err)
	}
	unknown := reg.Execute(context.Background(), tools.Call{ID: "c2", Name: "edit_file", Arguments: `{"path":"a"}`})
	wantMsgs := append(streamtest.Start(),
		agent.Message{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"text":"中文"}`), streamtest.Call("c2", "edit_file", `{"path":"a"}`)}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "中文\nsecond line"},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c2", Content: unknown.Content},
		agent.Message{Role: agent.RoleAssistant, Content: "The bug is a / b."},
	)
	if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	c1, c2 := &agent.EventCall{ID: "c1", Name: "echo", Arguments: `{"text":"中文"}`}, &agent.EventCall{ID: "c2", Name: "edit_file", Arguments: `{"path":"a"}`}
	wantEvents := []agent.Event{
		{Kind: agent.KindText, Turn: 1, Text: "Looking."},
		{Kind: agent.KindCall, Turn: 1, Call: c1},
		{Kind: agent.KindResult, Turn: 1, Call: c1, Result: &agent.EventResult{Chars: 14, Summary: "中文", OriginalChars: 14}},
		{Kind: agent.KindCall, Turn: 1, Call: c2},
		{Kind: agent.KindResult, Turn: 1, Call: c2, Result: &agent.EventResult{Chars: unknown.Chars(), IsError: true, Summary: unknown.Content, OriginalChars: unknown.Chars()}},
		{Kind: agent.KindTurnEnd, Turn: 1, FinishReason: "tool_calls", ToolCalls: 2},
		{Kind: agent.KindText, Turn: 2, Text: "The bug is a / b."},
		{Kind: agent.KindTurnEnd, Turn: 2, FinishReason: "stop"},
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// The whole messages array is re-sent on every request.
	reqs := g.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if diff := cmp.Diff(streamtest.Start(), reqs[0].Request.Messages); diff != "" {
		t.Errorf("request 1 messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantMsgs[:5], reqs[1].Request.Messages); diff != "" {
		t.Errorf("request 2 messages (-want +got):\n%s", diff)
	}
	body, _ := chat.Body("test-model", wantMsgs[:5], reg.Definitions())
	if diff := cmp.Diff(string(body), reqs[1].Body); diff != "" {
		t.Errorf("request 2 body (-want +got):\n%s", diff)
	}
}

func TestEventJSON(t *testing.T) {
	events := []agent.Event{
		{Kind: agent.KindCall, Turn: 1, Call: &agent.EventCall{ID: "c1", Name: "glob", Arguments: `{"pattern":"**/*.js"}`}},
		{Kind: agent.KindResult, Turn: 1, Call: &agent.EventCall{ID: "c1", Name: "glob", Arguments: "{}"}, Result: &agent.EventResult{Chars: 8054, IsError: false, Summary: "a.js", Truncated: true, OriginalChars: 20000}},
		{Kind: agent.KindText, Turn: 2, Text: "done"},
		{Kind: agent.KindTurnEnd, Turn: 2, FinishReason: "stop"},
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
			if diff := cmp.Diff(tt.want, agent.FirstLine(tt.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoopTurnLimit(t *testing.T) {
	calls := streamtest.SSECalls("", "c1", "echo", `{"text":"again"}`)
	g := streamtest.NewGateway(t, streamtest.Reply{Body: calls}, streamtest.Reply{Body: calls}, streamtest.Reply{Body: calls})
	l := &agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.EN, nil), MaxTurns: 2}
	msgs, err := l.Run(context.Background(), streamtest.Start())
	if !errors.Is(err, agent.ErrTurnLimit) {
		t.Fatalf("err = %v, want ErrTurnLimit", err)
	}
	if diff := cmp.Diff("agent: turn limit of 2 reached without a final answer", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if n := len(g.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if len(msgs) != 6 {
		t.Errorf("%d messages, want 6 (2 start + 2 turns of assistant and result)", len(msgs))
	}
	if err := agent.CheckMessages(msgs); err != nil {
		t.Errorf("messages invalid after the turn limit: %v", err)
	}
}

func TestLoopDefaultTurnLimitIsTen(t *testing.T) {
	calls := streamtest.SSECalls("", "c1", "echo", `{"text":"again"}`)
	var replies []streamtest.Reply
	for i := 0; i < 11; i++ {
		replies = append(replies, streamtest.Reply{Body: calls})
	}
	g := streamtest.NewGateway(t, replies...)
	_, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(context.Background(), streamtest.Start())
	if err == nil || err.Error() != "agent: turn limit of 10 reached without a final answer" {
		t.Fatalf("err = %v", err)
	}
	if n := len(g.Requests()); n != 10 {
		t.Errorf("%d requests, want 10", n)
	}
}

// Every error path leaves messages that pass CheckMessages, and a cut-off
// turn adds nothing.
func TestLoopErrorsLeaveMessagesValid(t *testing.T) {
	first := streamtest.Reply{Body: streamtest.SSECalls("", "c1", "echo", `{"text":"one"}`)}
	afterFirst := append(streamtest.Start(),
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"text":"one"}`)}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "one\nsecond line"})
	partial := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c2","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n"
	tests := []struct {
		reason   string
		second   streamtest.Reply
		wantErr  string
		wantType func(error) bool
	}{
		{
			reason:   "an HTTP error on the second request",
			second:   streamtest.Reply{Status: http.StatusUnauthorized, Body: `{"error":"bad key"}`},
			wantErr:  `agent: request 2: gateway returned 401 Unauthorized: {"error":"bad key"}`,
			wantType: func(err error) bool { var he *agent.HTTPError; return errors.As(err, &he) },
		},
		{
			reason:   "a stream error after a partial tool call",
			second:   streamtest.Reply{Body: partial + `data: {"error":{"message":"overloaded"}}` + "\n\n"},
			wantErr:  "agent: request 2: stream error: overloaded",
			wantType: func(err error) bool { var se *agent.StreamError; return errors.As(err, &se) },
		},
		{
			reason:   "a stream cut off inside a tool call",
			second:   streamtest.Reply{Body: partial},
			wantErr:  "agent: request 2: stream ended without a finish_reason or [DONE]",
			wantType: func(err error) bool { return errors.Is(err, agent.ErrTruncatedStream) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			g := streamtest.NewGateway(t, first, tt.second)
			msgs, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(context.Background(), streamtest.Start())
			if err == nil || err.Error() != tt.wantErr || !tt.wantType(err) {
				t.Fatalf("err = %v, want %s", err, tt.wantErr)
			}
			if diff := cmp.Diff(afterFirst, msgs); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if err := agent.CheckMessages(msgs); err != nil {
				t.Errorf("CheckMessages: %v", err)
			}
		})
	}
}

func TestLoopCancelWhileToolsRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := streamtest.NewGateway(t, streamtest.Reply{Body: streamtest.SSECalls("", "c1", "echo", `{"text":"one"}`, "c2", "echo", `{"text":"two"}`)})
	var kinds []agent.EventKind
	l := &agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, func(context.Context) { cancel() }),
		OnEvent: func(e agent.Event) { kinds = append(kinds, e.Kind) }}
	msgs, err := l.Run(ctx, streamtest.Start())
	if !errors.Is(err, context.Canceled) || err.Error() != "agent: run cancelled: context canceled" {
		t.Fatalf("err = %v, want a wrapped context.Canceled", err)
	}
	want := append(streamtest.Start(),
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"text":"one"}`), streamtest.Call("c2", "echo", `{"text":"two"}`)}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "one\nsecond line"},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c2", Content: "已取消：这个工具调用没有执行"},
	)
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]agent.EventKind{agent.KindCall, agent.KindResult, agent.KindTurnEnd}, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if err := agent.CheckMessages(msgs); err != nil {
		t.Errorf("CheckMessages: %v", err)
	}
}

func TestLoopCancelDuringRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	partial := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n"
	g := streamtest.NewGateway(t, streamtest.Reply{Body: partial, Hold: func(r *http.Request) {
		cancel()
		<-r.Context().Done()
	}})
	msgs, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(ctx, streamtest.Start())
	if !errors.Is(err, context.Canceled) || err.Error() != "agent: run cancelled: context canceled" {
		t.Fatalf("err = %v, want a wrapped context.Canceled", err)
	}
	if diff := cmp.Diff(streamtest.Start(), msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestLoopCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := streamtest.NewGateway(t)
	msgs, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(ctx, streamtest.Start())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(g.Requests()) != 0 || len(msgs) != 2 {
		t.Errorf("%d requests, %d messages; want 0 and 2", len(g.Requests()), len(msgs))
	}
}

func TestLoopRefusesInvalidMessages(t *testing.T) {
	g := streamtest.NewGateway(t)
	bad := append(streamtest.Start(), agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", "{}")}})
	msgs, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(context.Background(), bad)
	if !errors.Is(err, agent.ErrInvalidMessages) {
		t.Fatalf("err = %v, want ErrInvalidMessages", err)
	}
	if diff := cmp.Diff(`agent: before request 1: invalid messages: message 2: tool call "c1" has no result`, err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if len(g.Requests()) != 0 || len(msgs) != 3 {
		t.Errorf("%d requests, %d messages; want 0 and 3", len(g.Requests()), len(msgs))
	}
}

// finish_reason tool_calls with no call merged is a tool turn that asks for
// nothing: the run ends there instead of re-sending the same conversation.
func TestLoopToolTurnWithoutCallsEnds(t *testing.T) {
	body := `data: {"choices":[{"index":0,"delta":{"content":"Let me check."},"finish_reason":"tool_calls"}]}` + "\n\n"
	g := streamtest.NewGateway(t, streamtest.Reply{Body: body})
	msgs, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(context.Background(), streamtest.Start())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(append(streamtest.Start(), agent.Message{Role: agent.RoleAssistant, Content: "Let me check."}), msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestLoopDoesNotAliasCallerMessages(t *testing.T) {
	g := streamtest.NewGateway(t, streamtest.Reply{Body: streamtest.SSECalls("done")})
	in := make([]agent.Message, 2, 10)
	copy(in, streamtest.Start())
	out, err := (&agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.ZH, nil)}).Run(context.Background(), in)
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
	turn3 := `data: {"choices":[{"index":0,"delta":{"reasoning_content":"done thinking"}}]}` + "\n\n" + streamtest.SSECalls("Done.")
	g := streamtest.NewGateway(t, streamtest.Reply{Body: turn1}, streamtest.Reply{Body: turn2}, streamtest.Reply{Body: turn3})
	var events []agent.Event
	l := &agent.Loop{Client: g.Client(chat.Format), Tools: streamtest.Tools(t, tools.EN, nil), OnEvent: func(e agent.Event) {
		if e.Kind == agent.KindReasoning || e.Kind == agent.KindText {
			events = append(events, e)
		}
	}}
	msgs, err := l.Run(context.Background(), streamtest.Start())
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := []agent.Event{
		{Kind: agent.KindReasoning, Turn: 1, Text: "need the echo"},
		{Kind: agent.KindReasoning, Turn: 2, Text: "partsother field "},
		{Kind: agent.KindReasoning, Turn: 3, Text: "done thinking"},
		{Kind: agent.KindText, Turn: 3, Text: "Done."},
	}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	reqs := g.Requests()
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
	if diff := cmp.Diff(agent.Message{Role: agent.RoleAssistant, Content: "Done.", Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "done thinking"}}}, last); diff != "" {
		t.Errorf("final message (-want +got):\n%s", diff)
	}
	if got, _ := json.Marshal(last); string(got) != `{"role":"assistant","content":"Done."}` {
		t.Errorf("final message marshals to %s", got)
	}
}
