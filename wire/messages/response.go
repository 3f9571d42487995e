package messages

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/agent"
)

// toolUse is a whole tool_use block, in the member order Anthropic sends.
type toolUse struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Response renders t as the JSON body of a non-streamed Messages answer: a
// message with a text block (when t has text) and a tool_use block per call
// whose input is the arguments' object ({} when they are empty or not
// JSON), with the ids, stop_reason and usage Write gives the same turn.
// Reasoning is not written.
func Response(model, conversation string, index int, t *agent.Turn) []byte {
	content := []any{}
	if t.Text != "" {
		content = append(content, typedText{"text", t.Text})
	}
	for c, call := range t.ToolCalls {
		id := call.ID
		if id == "" {
			id = toolUseID(conversation, index, c)
		}
		input := json.RawMessage(call.Function.Arguments)
		if !json.Valid(input) {
			input = json.RawMessage("{}")
		}
		content = append(content, toolUse{"tool_use", id, call.Function.Name, input})
	}
	stop := "end_turn"
	if len(t.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if t.FinishReason != "" {
		stop = t.FinishReason
	}
	b, err := json.Marshal(streamMessage{ID: messageID(conversation, index), Type: "message", Role: agent.RoleAssistant,
		Model: model, Content: content, StopReason: &stop,
		Usage: &streamUsage{InputTokens: 100 * (index + 1), OutputTokens: 10 + len(t.Text)/4}})
	if err != nil {
		panic(err) // plain structs of strings and valid raw JSON always marshal
	}
	return append(b, '\n')
}
