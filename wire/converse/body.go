package converse

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// request is a Converse request body; its field order is the key order.
type request struct {
	Messages        []message        `json:"messages"`
	System          []block          `json:"system,omitempty"`
	ToolConfig      *toolConfig      `json:"toolConfig,omitempty"`
	InferenceConfig *inferenceConfig `json:"inferenceConfig,omitempty"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a content block: a union of which one member is set.
type block struct {
	Text             *string           `json:"text,omitempty"`
	ToolUse          *toolUse          `json:"toolUse,omitempty"`
	ToolResult       *toolResult       `json:"toolResult,omitempty"`
	ReasoningContent *reasoningContent `json:"reasoningContent,omitempty"`
}

type toolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type toolResult struct {
	ToolUseID string  `json:"toolUseId"`
	Content   []block `json:"content"`
	Status    string  `json:"status,omitempty"`
}

type reasoningContent struct {
	ReasoningText *struct {
		Text      string `json:"text"`
		Signature string `json:"signature,omitempty"`
	} `json:"reasoningText,omitempty"`
}

type toolConfig struct {
	Tools []tool `json:"tools"`
}

type tool struct {
	ToolSpec toolSpec `json:"toolSpec"`
}

type toolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	InputSchema struct {
		JSON json.RawMessage `json:"json"`
	} `json:"inputSchema"`
}

type inferenceConfig struct {
	MaxTokens int `json:"maxTokens"`
}

// Body returns the exact bytes of a ConverseStream request for the
// neutral messages and tool definitions (see the package documentation);
// the model is the path's, not the body's.
func Body(_ string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req := request{InferenceConfig: &inferenceConfig{MaxTokens: MaxTokens}}
	req.System, req.Messages = toWire(msgs)
	if len(defs) > 0 {
		req.ToolConfig = &toolConfig{}
		for _, d := range defs {
			t := tool{ToolSpec: toolSpec{Name: d.Function.Name, Description: d.Function.Description}}
			t.ToolSpec.InputSchema.JSON = d.Function.Parameters
			req.ToolConfig.Tools = append(req.ToolConfig.Tools, t)
		}
	}
	return json.Marshal(req)
}

// toWire converts neutral messages to the system blocks and the messages.
func toWire(msgs []agent.Message) ([]block, []message) {
	var system []string
	var out []message
	resultsOpen := false // the last message holds the tool results of the turn before
	for _, m := range msgs {
		switch m.Role {
		case agent.RoleSystem:
			system = append(system, m.Content)
			continue
		case agent.RoleAssistant:
			out = append(out, message{Role: agent.RoleAssistant, Content: assistantBlocks(m)})
			resultsOpen = false
		case agent.RoleTool:
			text := m.Content
			r := block{ToolResult: &toolResult{ToolUseID: m.ToolCallID, Content: []block{{Text: &text}}}}
			if resultsOpen {
				last := &out[len(out)-1]
				last.Content = append(last.Content, r)
			} else {
				out = append(out, message{Role: agent.RoleUser, Content: []block{r}})
				resultsOpen = true
			}
		default:
			text := m.Content
			if resultsOpen {
				last := &out[len(out)-1]
				last.Content = append(last.Content, block{Text: &text})
				resultsOpen = false
				continue
			}
			out = append(out, message{Role: m.Role, Content: []block{{Text: &text}}})
		}
	}
	var sys []block
	if len(system) > 0 {
		s := strings.Join(system, "\n\n")
		sys = []block{{Text: &s}}
	}
	return sys, out
}

// assistantBlocks is a message's reasoning (with its signature), its text
// when not empty, then its calls.
func assistantBlocks(m agent.Message) []block {
	var blocks []block
	for _, th := range m.Thinking {
		if th.Type != agent.ThinkingText || th.Signature == "" {
			continue // reasoning without a signature is not sent back
		}
		r := &reasoningContent{}
		r.ReasoningText = &struct {
			Text      string `json:"text"`
			Signature string `json:"signature,omitempty"`
		}{th.Text, th.Signature}
		blocks = append(blocks, block{ReasoningContent: r})
	}
	if m.Content != "" {
		text := m.Content
		blocks = append(blocks, block{Text: &text})
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, block{ToolUse: &toolUse{ToolUseID: c.ID, Name: c.Function.Name, Input: input(c.Function.Arguments)}})
	}
	return blocks
}

// input is the arguments compacted when they are a JSON object, else {}:
// the API takes a document, and the tool result already told the model
// what was wrong.
func input(args string) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) == nil && b.Len() > 0 && b.Bytes()[0] == '{' {
		return b.Bytes()
	}
	return json.RawMessage("{}")
}
