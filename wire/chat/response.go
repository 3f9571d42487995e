package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
)

// wireCompletion is a non-streamed chat.completion in the field order
// OpenAI sends.
type wireCompletion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
}

type completionChoice struct {
	Index        int               `json:"index"`
	Message      completionMessage `json:"message"`
	FinishReason string            `json:"finish_reason"`
}

type completionMessage struct {
	Role             string           `json:"role"`
	Content          *string          `json:"content"`
	ReasoningContent *string          `json:"reasoning_content,omitempty"`
	ToolCalls        []completionCall `json:"tool_calls,omitempty"`
}

// completionCall is a whole call: no index, as OpenAI sends it.
type completionCall struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Function     wireFunction    `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

// Response renders t as the JSON body of a non-streamed chat completion:
// one choice whose message carries the text (null when there is none), the
// echoed reasoning as reasoning_content, and the calls whole (no index),
// with the ids and the finish reason Write gives the same turn.
func Response(model, conversation string, index int, t *agent.Turn) []byte {
	msg := completionMessage{Role: agent.RoleAssistant}
	if t.Text != "" {
		text := t.Text
		msg.Content = &text
	}
	if r := echoedReasoning(t); r != "" {
		msg.ReasoningContent = &r
	}
	for i, c := range t.ToolCalls {
		callID := c.ID
		if callID == "" {
			callID = openai.CallID(conversation, index, i)
		}
		msg.ToolCalls = append(msg.ToolCalls, completionCall{ID: callID, Type: "function",
			Function: wireFunction{Name: c.Function.Name, Arguments: c.Function.Arguments}, ExtraContent: c.ExtraContent})
	}
	finish := t.FinishReason
	if finish == "" {
		finish = "stop"
		if len(t.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	b, err := json.Marshal(wireCompletion{ID: fmt.Sprintf("chatcmpl-%s-%d", conversation, index+1), Object: "chat.completion",
		Created: openai.Created, Model: model, Choices: []completionChoice{{Message: msg, FinishReason: finish}}})
	if err != nil {
		panic(err) // plain structs of strings and valid raw JSON always marshal
	}
	return append(b, '\n')
}
