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
// It marshals to {"role":..,"content":..,"tool_calls":[..],"tool_call_id":..}
// with keys in that order: tool_calls and tool_call_id are left out when empty,
// and an assistant message that carries tool calls and no text has "content":null.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Thinking is the assistant's reasoning blocks, echoed by formats that
	// need them (Anthropic Messages); never part of the chat-completions body.
	Thinking []Thinking `json:"-"`
}

// ToolCall is a tool call as the assistant message carries it. Type is "function".
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
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
