package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/piece"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
)

// wireChunk is a chat.completion.chunk in the field order OpenAI sends.
type wireChunk struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
}

type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

type wireDelta struct {
	Role             string         `json:"role,omitempty"`
	Content          *string        `json:"content,omitempty"`
	ReasoningContent *string        `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type wireToolCall struct {
	Index        int             `json:"index"`
	ID           string          `json:"id,omitempty"`
	Type         string          `json:"type,omitempty"`
	Function     wireFunction    `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Write renders t as the events of a clean chat-completions stream
// ("data: {...}\n\n" each, "data: [DONE]\n\n" last): a role chunk, the
// reasoning that is echoed (agent.ThinkingText blocks) in pieces as
// reasoning_content, the text in pieces, each call's head (index, id, type,
// name, empty arguments, and its extra_content, Gemini's thought signature,
// when it has one) followed by its arguments in pieces, and a finish chunk.
func Write(model, conversation string, index int, t *agent.Turn) []string {
	id := fmt.Sprintf("chatcmpl-%s-%d", conversation, index+1)
	var events []string
	emit := func(d wireDelta, finish *string) {
		b, err := json.Marshal(wireChunk{ID: id, Object: "chat.completion.chunk", Created: openai.Created, Model: model,
			Choices: []wireChoice{{Delta: d, FinishReason: finish}}})
		if err != nil {
			panic(err) // plain structs of strings and valid raw JSON always marshal
		}
		events = append(events, "data: "+string(b)+"\n\n")
	}
	empty := ""
	emit(wireDelta{Role: agent.RoleAssistant, Content: &empty}, nil)
	for _, piece := range piece.Split(echoedReasoning(t), piece.TextRunes) {
		emit(wireDelta{ReasoningContent: &piece}, nil)
	}
	for _, piece := range piece.Split(t.Text, piece.TextRunes) {
		emit(wireDelta{Content: &piece}, nil)
	}
	for i, c := range t.ToolCalls {
		callID := c.ID
		if callID == "" {
			callID = openai.CallID(conversation, index, i)
		}
		emit(wireDelta{ToolCalls: []wireToolCall{{Index: i, ID: callID, Type: "function",
			Function: wireFunction{Name: c.Function.Name}, ExtraContent: c.ExtraContent}}}, nil)
		for _, piece := range piece.Split(c.Function.Arguments, piece.ArgsRunes) {
			emit(wireDelta{ToolCalls: []wireToolCall{{Index: i, Function: wireFunction{Arguments: piece}}}}, nil)
		}
	}
	finish := t.FinishReason
	if finish == "" {
		finish = "stop"
		if len(t.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	emit(wireDelta{}, &finish)
	return append(events, "data: [DONE]\n\n")
}

// echoedReasoning is the text of t's agent.ThinkingText blocks: what a
// chat-completions stream sends as reasoning_content.
func echoedReasoning(t *agent.Turn) string {
	var s string
	for _, th := range t.Thinking {
		if th.Type == agent.ThinkingText {
			s += th.Text
		}
	}
	return s
}
