package responses

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
	"github.com/google/go-cmp/cmp"
)

// TestWrite: the clean stream merges back to the reply, with
// no warning, and is the same bytes on every call.
func TestWrite(t *testing.T) {
	r := agent.Turn{Text: "先看看仓库里有哪些 JS 文件。", ToolCalls: []agent.ToolCall{
		streamtest.Call("", "glob", `{"pattern":"**/*.js"}`),
		streamtest.Call("", "grep", `{"pattern":"divide","glob":"**/*.js"}`),
	}}
	body := strings.Join(Write("demo", "demo", 0, &r), "")
	if again := strings.Join(Write("demo", "demo", 0, &r), ""); again != body {
		t.Fatal("two renderings differ")
	}
	turn, err := Merge(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	want := &agent.Turn{Text: r.Text, FinishReason: "tool_calls", ToolTurn: true, ToolCalls: []agent.ToolCall{
		{ID: openai.CallID("demo", 0, 0), Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: r.ToolCalls[0].Function.Arguments}},
		{ID: openai.CallID("demo", 0, 1), Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: r.ToolCalls[1].Function.Arguments}},
	}}
	if diff := cmp.Diff(want, turn); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if n := strings.Count(body, "response.function_call_arguments.delta\ndata:"); n < 8 {
		t.Errorf("%d argument deltas, want the arguments in pieces", n)
	}
}
