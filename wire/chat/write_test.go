package chat

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// The clean stream is the same bytes every time, arguments in pieces of
// 6 runes, the finish chunk and [DONE] last.
func TestWriteIsStableAndSplit(t *testing.T) {
	r := agent.Turn{Text: "先看看", ToolCalls: []agent.ToolCall{streamtest.Call("", "glob", `{"pattern":"**/*.js"}`)}}
	a := strings.Join(Write("m", "s", 0, &r), "")
	if b := strings.Join(Write("m", "s", 0, &r), ""); a != b {
		t.Fatal("Write is not deterministic")
	}
	if n := strings.Count(a, `"function":{"arguments":`); n != 4 { // 21 runes in pieces of 6
		t.Errorf("arguments in %d pieces, want 4:\n%s", n, a)
	}
	if !strings.HasSuffix(a, "\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n") {
		t.Errorf("stream does not end with the finish chunk and [DONE]:\n%s", a)
	}
}
