package agent

import (
	"bytes"
	"encoding/json"
)

// Roles of a chat-completions message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one entry of the chat-completions messages array.
//
// It marshals to {"role":..,"content":..,"reasoning_content":..,"tool_calls":[..],"tool_call_id":..}
// with keys in that order: reasoning_content, tool_calls and tool_call_id are
// left out when empty, and an assistant message that carries tool calls and
// no text has "content":null.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ReasoningContent is echoed on an assistant message that made tool
	// calls: DeepSeek's thinking mode answers 400 when the reasoning_content
	// of a tool-call turn is missing from a later request. The loop sets it
	// only there, and only from reasoning that came as reasoning_content.
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
}

// ToolCall is a tool call as the assistant message carries it. Type is
// "function". ExtraContent is the call's extra_content exactly as the model
// sent it (Gemini puts its thought_signature there and answers 400 when the
// next request drops it); left out when there was none.
type ToolCall struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Function     FunctionCall    `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

// FunctionCall names the tool and carries its arguments as raw JSON text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// MarshalJSON writes the wire shape with a fixed key order, so that the same
// messages always give the same bytes.
func (m Message) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"role":`)
	if err := writeJSONString(&b, m.Role); err != nil {
		return nil, err
	}
	b.WriteString(`,"content":`)
	if m.Content == "" && len(m.ToolCalls) > 0 {
		b.WriteString("null")
	} else if err := writeJSONString(&b, m.Content); err != nil {
		return nil, err
	}
	if m.ReasoningContent != "" {
		b.WriteString(`,"reasoning_content":`)
		if err := writeJSONString(&b, m.ReasoningContent); err != nil {
			return nil, err
		}
	}
	if len(m.ToolCalls) > 0 {
		calls, err := json.Marshal(m.ToolCalls)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"tool_calls":`)
		b.Write(calls)
	}
	if m.ToolCallID != "" {
		b.WriteString(`,"tool_call_id":`)
		if err := writeJSONString(&b, m.ToolCallID); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSONString(b *bytes.Buffer, s string) error {
	q, err := json.Marshal(s)
	if err != nil {
		return err
	}
	b.Write(q)
	return nil
}
