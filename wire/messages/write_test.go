package messages

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// The clean stream is the same bytes every time, the arguments after an
// empty first partial_json in pieces of 6 runes, and merges back with the
// usage it reports.
func TestWriteIsStableAndClean(t *testing.T) {
	r := agent.Turn{Text: "先看看", ToolCalls: []agent.ToolCall{streamtest.Call("", "glob", `{"pattern":"**/*.js"}`)}}
	a := strings.Join(Write("m", "s", 0, &r), "")
	if b := strings.Join(Write("m", "s", 0, &r), ""); a != b {
		t.Fatal("Write is not deterministic")
	}
	if n := strings.Count(a, `"type":"input_json_delta"`); n != 5 { // "" then 21 runes in pieces of 6
		t.Errorf("arguments in %d deltas, want 5:\n%s", n, a)
	}
	turn, err := Merge(strings.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	want := &agent.Turn{Text: "先看看", FinishReason: "tool_use", ToolTurn: true,
		ToolCalls: []agent.ToolCall{{ID: toolUseID("s", 0, 0), Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}}},
		Usage:     &agent.Usage{PromptTokens: 100, CompletionTokens: 12, TotalTokens: 112}}
	if diff := cmp.Diff(want, turn); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
}
