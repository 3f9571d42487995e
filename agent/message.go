package agent

import (
	"bytes"
	"encoding/json"
	"strings"
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
// with keys in that order: reasoning_content (see ReasoningContent),
// tool_calls and tool_call_id are left out when empty, and an assistant
// message that carries tool calls and no text has "content":null.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Thinking is the assistant's reasoning blocks, echoed by formats that
	// need them: Anthropic Messages sends them as they are; the
	// chat-completions body carries only ReasoningContent.
	Thinking []Thinking `json:"-"`
}

// ReasoningContent is what the chat-completions body echoes as
// "reasoning_content": on an assistant message that made tool calls, the
// text of its ThinkingText blocks (DeepSeek's thinking mode answers 400 when
// a tool-call turn's reasoning_content is missing from a later request);
// "" otherwise. A final answer's reasoning is not needed back.
func (m Message) ReasoningContent() string {
	if len(m.ToolCalls) == 0 {
		return ""
	}
	var b strings.Builder
	for _, th := range m.Thinking {
		if th.Type == ThinkingText {
			b.WriteString(th.Text)
		}
	}
	return b.String()
}

// UnmarshalJSON reads the wire shape MarshalJSON writes; reasoning_content
// becomes one ThinkingText block.
func (m *Message) UnmarshalJSON(b []byte) error {
	type plain Message // without the methods
	var w struct {
		plain
		ReasoningContent string `json:"reasoning_content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message(w.plain)
	if w.ReasoningContent != "" {
		m.Thinking = []Thinking{{Type: ThinkingText, Text: w.ReasoningContent}}
	}
	return nil
}

// ToolCall is a tool call as the assistant message carries it. Type is
// "function", or "custom" for a custom tool's call (OpenAI Responses:
// freeform input, kept as Function.Arguments, answered with
// custom_tool_call_output). ExtraContent is the call's extra_content exactly as the model
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
	if rc := m.ReasoningContent(); rc != "" {
		b.WriteString(`,"reasoning_content":`)
		if err := writeJSONString(&b, rc); err != nil {
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
