package messages

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// Content block types of the Messages format that the agent reads or writes.
const (
	blockText       = "text"
	blockToolUse    = "tool_use"
	blockToolResult = "tool_result"
)

// messagesRequest is the body of a Messages request; its field order is the
// key order.
type messagesRequest struct {
	Model     string     `json:"model"`
	MaxTokens int        `json:"max_tokens"`
	System    string     `json:"system,omitempty"`
	Messages  []wireTurn `json:"messages"`
	Tools     []wireTool `json:"tools,omitempty"`
	Stream    bool       `json:"stream"`
}

// wireTurn is one entry of a Messages request's messages array.
type wireTurn struct {
	Role    string      `json:"role"`
	Content []wireBlock `json:"content"`
}

// wireBlock is a content block; only the fields of its type are set.
type wireBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	Data      *string         `json:"data,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
}

// wireTool is a tool definition in the Messages shape.
type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Body returns the exact bytes a Messages request sends:
// {"model","max_tokens","system","messages","tools","stream":true}, from the
// same neutral messages and tool definitions as the chat format:
//   - system messages become "system" (joined by a blank line);
//   - an assistant message becomes its thinking blocks, then its text (when
//     not empty), then one tool_use block per call, so that nothing follows a
//     tool_use; a call's input is its arguments when they are a JSON object,
//     else {} (the tool result already told the model what was wrong);
//   - the tool messages after it become one user message of tool_result
//     blocks, in order; a user message right after them joins that message,
//     after the results;
//   - "system" and "tools" are left out when empty.
func Body(model string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req := messagesRequest{Model: model, MaxTokens: MaxTokens, Stream: true}
	req.System, req.Messages = toWire(msgs)
	for _, d := range defs {
		req.Tools = append(req.Tools, wireTool{Name: d.Function.Name, Description: d.Function.Description, InputSchema: d.Function.Parameters})
	}
	return json.Marshal(req)
}

// toWire converts neutral messages to the system text and the Messages turns.
func toWire(msgs []agent.Message) (string, []wireTurn) {
	var system []string
	turns := []wireTurn{}
	add := func(role string, blocks ...wireBlock) {
		if n := len(turns); n > 0 && turns[n-1].Role == role && role == agent.RoleUser {
			turns[n-1].Content = append(turns[n-1].Content, blocks...)
			return
		}
		turns = append(turns, wireTurn{Role: role, Content: append([]wireBlock{}, blocks...)})
	}
	for _, m := range msgs {
		switch m.Role {
		case agent.RoleSystem:
			system = append(system, m.Content)
		case agent.RoleAssistant:
			add(agent.RoleAssistant, assistantBlocks(m)...)
		case agent.RoleTool:
			content, _ := json.Marshal(m.Content) // a string always marshals
			add(agent.RoleUser, wireBlock{Type: blockToolResult, ToolUseID: m.ToolCallID, Content: content})
		default:
			add(agent.RoleUser, textBlocks(m.Content)...)
		}
	}
	return strings.Join(system, "\n\n"), turns
}

func assistantBlocks(m agent.Message) []wireBlock {
	var blocks []wireBlock
	for _, th := range m.Thinking {
		if th.Type == agent.ThinkingReasoning {
			continue // shown, never sent back
		}
		if th.Type == agent.ThinkingRedacted {
			blocks = append(blocks, wireBlock{Type: agent.ThinkingRedacted, Data: &th.Data})
			continue
		}
		blocks = append(blocks, wireBlock{Type: agent.ThinkingText, Thinking: &th.Text, Signature: &th.Signature})
	}
	blocks = append(blocks, textBlocks(m.Content)...)
	for _, c := range m.ToolCalls {
		blocks = append(blocks, wireBlock{Type: blockToolUse, ID: c.ID, Name: c.Function.Name, Input: toolInput(c.Function.Arguments)})
	}
	return blocks
}

// textBlocks is one text block, or none for "" (the API refuses empty text).
func textBlocks(s string) []wireBlock {
	if s == "" {
		return nil
	}
	return []wireBlock{{Type: blockText, Text: &s}}
}

// toolInput is the arguments compacted when they are a JSON object, else {}.
func toolInput(args string) json.RawMessage {
	var b bytes.Buffer
	if json.Valid([]byte(args)) && json.Compact(&b, []byte(args)) == nil && b.Len() > 0 && b.Bytes()[0] == '{' {
		return b.Bytes()
	}
	return json.RawMessage(`{}`)
}
