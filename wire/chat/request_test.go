package chat

import (
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestRequestBodyIsDeterministic(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys <&>"},
		{Role: agent.RoleUser, Content: "why red?"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"text":"x"}`)}},
		{Role: agent.RoleTool, ToolCallID: "c1", Content: "x"},
	}
	want := `{"model":"m","messages":[{"role":"system","content":"sys \u003c\u0026\u003e"},{"role":"user","content":"why red?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]},` +
		`{"role":"tool","content":"x","tool_call_id":"c1"}],` +
		`"tools":[{"type":"function","function":{"name":"echo","description":"Echo the text.","parameters":{"type":"object","properties":{"text":{"type":"string"}}}}}],"stream":true}`
	for i := 0; i < 3; i++ {
		got, err := Body("m", msgs, streamtest.Defs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Fatalf("body (-want +got):\n%s", diff)
		}
	}
	got, _ := Body("m", nil, nil)
	if diff := cmp.Diff(`{"model":"m","messages":[],"stream":true}`, string(got)); diff != "" {
		t.Errorf("empty body (-want +got):\n%s", diff)
	}
}
