package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// Decode reads a Messages request body the way the scripted
// gateway and conform see it: "system" (a string or text blocks) becomes a
// system message; a user message's tool_result blocks become tool messages
// and its text one user message; an assistant message's thinking, text and
// tool_use blocks become one assistant message. It checks the invariants of
// checkWire first: the error wraps ErrInvalidMessages when they are broken.
func Decode(body []byte) (agent.DecodedRequest, error) {
	var req struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not a Messages request: %w", err)
	}
	out := agent.DecodedRequest{Model: req.Model, Stream: req.Stream}
	turns := make([]wireTurn, len(req.Messages))
	for i, m := range req.Messages {
		blocks, err := decodeBlocks(m.Content)
		if err != nil {
			return out, fmt.Errorf("message %d: %w", i, err)
		}
		turns[i] = wireTurn{Role: m.Role, Content: blocks}
	}
	if err := checkWire(turns); err != nil {
		return out, err
	}
	if jsonscan.Present(req.System) {
		blocks, err := decodeBlocks(req.System)
		if err != nil {
			return out, fmt.Errorf("system: %w", err)
		}
		out.Messages = append(out.Messages, agent.Message{Role: agent.RoleSystem, Content: joinText(blocks)})
	}
	for _, t := range turns {
		out.Messages = append(out.Messages, fromWire(t)...)
	}
	return out, nil
}

// decodeBlocks reads a content member: a string (one text block) or blocks.
func decodeBlocks(raw json.RawMessage) ([]wireBlock, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return textBlocks(s), nil
	}
	var blocks []wireBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, fmt.Errorf("content is neither a string nor blocks: %w", err)
	}
	return blocks, nil
}

// fromWire converts one Messages turn to neutral messages.
func fromWire(t wireTurn) []agent.Message {
	if t.Role == agent.RoleAssistant {
		m := agent.Message{Role: agent.RoleAssistant, Content: joinText(t.Content)}
		for _, b := range t.Content {
			switch b.Type {
			case agent.ThinkingText:
				m.Thinking = append(m.Thinking, agent.Thinking{Type: agent.ThinkingText, Text: strOf(b.Thinking), Signature: strOf(b.Signature)})
			case agent.ThinkingRedacted:
				m.Thinking = append(m.Thinking, agent.Thinking{Type: agent.ThinkingRedacted, Data: strOf(b.Data)})
			case blockToolUse:
				args := "{}"
				var c bytes.Buffer
				if json.Compact(&c, b.Input) == nil && c.Len() > 0 {
					args = c.String()
				}
				m.ToolCalls = append(m.ToolCalls, agent.ToolCall{ID: b.ID, Type: "function", Function: agent.FunctionCall{Name: b.Name, Arguments: args}})
			}
		}
		return []agent.Message{m}
	}
	var out []agent.Message
	var text []wireBlock
	for _, b := range t.Content {
		if b.Type != blockToolResult {
			text = append(text, b)
			continue
		}
		content := ""
		if blocks, err := decodeBlocks(b.Content); err == nil {
			content = joinText(blocks)
		}
		out = append(out, agent.Message{Role: agent.RoleTool, ToolCallID: b.ToolUseID, Content: content})
	}
	if s := joinText(text); s != "" || len(out) == 0 {
		out = append(out, agent.Message{Role: t.Role, Content: s})
	}
	return out
}

// joinText is the text of the text blocks, joined by a blank line.
func joinText(blocks []wireBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == blockText && b.Text != nil {
			parts = append(parts, *b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

func strOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
