package responses

import (
	"context"
	"os"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

func TestResponsesRequestBody(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys <&>"},
		{Role: agent.RoleUser, Content: "why red?"},
		{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"text":"x"}`), streamtest.Call("c2", "echo", `{}`)}},
		{Role: agent.RoleTool, ToolCallID: "c1", Content: "x"},
		{Role: agent.RoleTool, ToolCallID: "c2", Content: ""},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c3", "echo", `{"text":"中"}`)}},
		{Role: agent.RoleTool, ToolCallID: "c3", Content: "中"},
		{Role: agent.RoleAssistant, Content: ""},
	}
	want := `{"model":"m","input":[` +
		`{"type":"message","role":"system","content":"sys \u003c\u0026\u003e"},` +
		`{"type":"message","role":"user","content":"why red?"},` +
		`{"type":"message","role":"assistant","content":"Looking."},` +
		`{"type":"function_call","call_id":"c1","name":"echo","arguments":"{\"text\":\"x\"}"},` +
		`{"type":"function_call","call_id":"c2","name":"echo","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c1","output":"x"},` +
		`{"type":"function_call_output","call_id":"c2","output":""},` +
		`{"type":"function_call","call_id":"c3","name":"echo","arguments":"{\"text\":\"中\"}"},` +
		`{"type":"function_call_output","call_id":"c3","output":"中"},` +
		`{"type":"message","role":"assistant","content":""}],` +
		`"tools":[{"type":"function","name":"echo","description":"Echo the text.","parameters":{"type":"object","properties":{"text":{"type":"string"}}}}],"stream":true}`
	for range 3 {
		got, err := Body("m", msgs, streamtest.Defs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Fatalf("body (-want +got):\n%s", diff)
		}
	}
	got, _ := Body("m", nil, nil)
	if diff := cmp.Diff(`{"model":"m","input":[],"stream":true}`, string(got)); diff != "" {
		t.Errorf("empty body (-want +got):\n%s", diff)
	}
	_, err := Body("m", []agent.Message{{Role: "developer", Content: "x"}}, nil)
	if diff := cmp.Diff(`message 0: role "developer" has no Responses input item`, streamtest.ErrText(err)); diff != "" {
		t.Errorf("unknown role (-want +got):\n%s", diff)
	}
}

// TestLoopOverResponses runs the loop against a loopback server speaking
// Responses: the request goes to /v1/responses with the Responses body, the
// merged call runs, and the merger's warning reaches the events first.
func TestLoopOverResponses(t *testing.T) {
	differs, err := os.ReadFile("testdata/streams/args_done_differs.sse")
	if err != nil {
		t.Fatal(err)
	}
	final, err := os.ReadFile("testdata/streams/text_only.sse")
	if err != nil {
		t.Fatal(err)
	}
	g := streamtest.NewGateway(t, streamtest.Reply{Body: string(differs)}, streamtest.Reply{Body: string(final)})
	c := g.Client(chat.Format)
	c.Format = Format
	reg := streamtest.Tools(t, tools.EN, nil)
	var events []agent.Event
	l := &agent.Loop{Client: c, Tools: reg, OnEvent: func(e agent.Event) { events = append(events, e) }}
	msgs, err := l.Run(context.Background(), streamtest.Start())
	if err != nil {
		t.Fatal(err)
	}
	grep := streamtest.Call("call_A3", "grep", `{"pattern":"divide","glob":"**/*.js"}`)
	res := reg.Execute(context.Background(), tools.Call{ID: "call_A3", Name: "grep", Arguments: grep.Function.Arguments})
	wantMsgs := append(streamtest.Start(),
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{grep}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "call_A3", Content: res.Content},
		agent.Message{Role: agent.RoleAssistant, Content: "The tests are red because divide(1, 0) does not throw."},
	)
	if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if len(events) < 2 || events[0].Kind != agent.KindWarning || events[1].Kind != agent.KindCall {
		t.Fatalf("events = %+v, want a warning then the call", events)
	}
	want := agent.Event{Kind: agent.KindWarning, Turn: 1, Text: "call call_A3: the arguments in response.function_call_arguments.done differ from the streamed deltas; the done text is used"}
	if diff := cmp.Diff(want, events[0]); diff != "" {
		t.Errorf("warning event (-want +got):\n%s", diff)
	}
	reqs := g.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/responses" {
		t.Fatalf("requests = %+v, want 2 to /v1/responses", reqs)
	}
	body, _ := Body("test-model", wantMsgs[:4], reg.Definitions())
	if diff := cmp.Diff(string(body), reqs[1].Body); diff != "" {
		t.Errorf("request 2 body (-want +got):\n%s", diff)
	}
}
