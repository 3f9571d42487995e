package converse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// Decode reads a ConverseStream request body the way a server sees it:
// "system" becomes a system message, a user message's toolResult blocks
// tool messages and its text one user message, an assistant message's
// reasoning, text and toolUse blocks one assistant message. It checks
// checkWire first: the error wraps ErrInvalidMessages when the
// conversation breaks the API's rules. The model and the stream flag are
// the path's (agent.Format.RequestOf).
func Decode(body []byte) (agent.DecodedRequest, error) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not a Converse request: %w", err)
	}
	if req.Messages == nil {
		return agent.DecodedRequest{}, fmt.Errorf(`body is not a Converse request: no "messages"`)
	}
	var out agent.DecodedRequest
	if err := checkWire(req.Messages); err != nil {
		return out, err
	}
	if s := joinText(req.System); s != "" {
		out.Messages = append(out.Messages, agent.Message{Role: agent.RoleSystem, Content: s})
	}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, fromWire(m)...)
	}
	return out, nil
}

func fromWire(m message) []agent.Message {
	if m.Role == agent.RoleAssistant {
		a := agent.Message{Role: agent.RoleAssistant, Content: joinText(m.Content)}
		for _, b := range m.Content {
			switch {
			case b.ReasoningContent != nil && b.ReasoningContent.ReasoningText != nil:
				rt := b.ReasoningContent.ReasoningText
				a.Thinking = append(a.Thinking, agent.Thinking{Type: agent.ThinkingText, Text: rt.Text, Signature: rt.Signature})
			case b.ToolUse != nil:
				args := "{}"
				var c bytes.Buffer
				if json.Compact(&c, b.ToolUse.Input) == nil && c.Len() > 0 {
					args = c.String()
				}
				a.ToolCalls = append(a.ToolCalls, agent.ToolCall{ID: b.ToolUse.ToolUseID, Type: "function", Function: agent.FunctionCall{Name: b.ToolUse.Name, Arguments: args}})
			}
		}
		return []agent.Message{a}
	}
	var out []agent.Message
	var text []block
	for _, b := range m.Content {
		if b.ToolResult == nil {
			text = append(text, b)
			continue
		}
		out = append(out, agent.Message{Role: agent.RoleTool, ToolCallID: b.ToolResult.ToolUseID, Content: joinText(b.ToolResult.Content)})
	}
	if s := joinText(text); s != "" || len(out) == 0 {
		out = append(out, agent.Message{Role: m.Role, Content: s})
	}
	return out
}

// joinText is the text of the text blocks, joined by a blank line.
func joinText(blocks []block) string {
	var parts []string
	for _, b := range blocks {
		if b.Text != nil {
			parts = append(parts, *b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}
