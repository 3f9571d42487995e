package chat

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/google/go-cmp/cmp"
)

// Usage is advisory: a member of an unexpected type is ignored (it stays 0),
// a "usage" that is not an object is ignored whole, and neither fails the
// turn. The scanner and the encoding/json fallback give the same turn.
func TestMergeStreamUsageOfUnexpectedType(t *testing.T) {
	tests := []struct {
		reason string
		usage  string
		want   *agent.Usage
	}{
		{"a float with a zero fraction", `{"prompt_tokens":12.0,"completion_tokens":3,"total_tokens":15}`, &agent.Usage{CompletionTokens: 3, TotalTokens: 15}},
		{"a number in a string", `{"prompt_tokens":"12","completion_tokens":3,"total_tokens":15}`, &agent.Usage{CompletionTokens: 3, TotalTokens: 15}},
		{"an exponent", `{"prompt_tokens":1e3,"total_tokens":true}`, &agent.Usage{}},
		{"an object and an array", `{"prompt_tokens":{"n":1},"completion_tokens":[2],"total_tokens":3}`, &agent.Usage{TotalTokens: 3}},
		{"too large for an int", `{"prompt_tokens":123456789012345678901234567890,"total_tokens":4}`, &agent.Usage{TotalTokens: 4}},
		{"null members", `{"prompt_tokens":null,"completion_tokens":null,"total_tokens":2}`, &agent.Usage{TotalTokens: 2}},
		{"usage a string", `"12 tokens"`, nil},
		{"usage a number", `42`, nil},
		{"usage an array", `[1,2,3]`, nil},
		{"keys in another case, as encoding/json matches them", `{"Prompt_Tokens":5,"TOTAL_TOKENS":"x","total_tokens":6}`, &agent.Usage{PromptTokens: 5, TotalTokens: 6}},
	}
	for _, tt := range tests {
		in := `data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}],"usage":` + tt.usage + "}\n\ndata: [DONE]\n\n"
		for _, jsonOnly := range []bool{false, true} {
			turn, err := merge(strings.NewReader(in), jsonOnly)
			if err != nil {
				t.Errorf("%s (encoding/json only: %v): %v", tt.reason, jsonOnly, err)
				continue
			}
			if diff := cmp.Diff(tt.want, turn.Usage); diff != "" {
				t.Errorf("%s (encoding/json only: %v): usage (-want +got):\n%s", tt.reason, jsonOnly, diff)
			}
			if turn.Text != "hi" || turn.FinishReason != "stop" {
				t.Errorf("%s: turn lost: text %q, finish %q", tt.reason, turn.Text, turn.FinishReason)
			}
		}
	}
}
