package harness

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
)

// Piece sizes of the clean stream, in runes. One call's arguments arrive in
// several pieces, as from a real gateway; the quirk transforms make it worse.
const (
	textPieceRunes = 8
	argsPieceRunes = 6
)

// created is the fixed "created" stamp of every scripted chunk, so that
// recordings are the same bytes on every run.
const created = 1767225600

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
	Index        int           `json:"index"`
	ID           string        `json:"id,omitempty"`
	Type         string        `json:"type,omitempty"`
	Function     wireFunction  `json:"function"`
	ExtraContent *extraContent `json:"extra_content,omitempty"`
}

// extraContent is Gemini's extra_content of a tool call.
type extraContent struct {
	Google struct {
		ThoughtSignature string `json:"thought_signature"`
	} `json:"google"`
}

// signature returns the extra_content that carries sig, nil for none.
func signature(sig string) *extraContent {
	if sig == "" {
		return nil
	}
	e := new(extraContent)
	e.Google.ThoughtSignature = sig
	return e
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// StreamReply renders one scripted reply as the SSE events of a clean
// chat-completions stream ("data: {...}\n\n" each, "data: [DONE]\n\n" last):
// a role chunk, the reasoning in pieces (reasoning_content), the text in
// pieces, each call's head (index, id, type, name, empty arguments, and the
// thought signature as extra_content when it has one) followed by its
// arguments in pieces, and a finish chunk.
// The same inputs always give the same bytes.
func StreamReply(model, script string, turn int, r Reply) []string {
	id := fmt.Sprintf("chatcmpl-%s-%d", script, turn+1)
	var events []string
	emit := func(d wireDelta, finish *string) {
		b, err := json.Marshal(wireChunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []wireChoice{{Delta: d, FinishReason: finish}}})
		if err != nil {
			panic(err) // plain structs of strings and ints always marshal
		}
		events = append(events, "data: "+string(b)+"\n\n")
	}
	empty := ""
	emit(wireDelta{Role: "assistant", Content: &empty}, nil)
	for _, piece := range splitRunes(r.Reasoning, textPieceRunes) {
		emit(wireDelta{ReasoningContent: &piece}, nil)
	}
	for _, piece := range splitRunes(r.Text, textPieceRunes) {
		emit(wireDelta{Content: &piece}, nil)
	}
	for i, c := range r.Calls {
		emit(wireDelta{ToolCalls: []wireToolCall{{Index: i, ID: callID(script, turn, i), Type: "function",
			Function: wireFunction{Name: c.Name}, ExtraContent: signature(c.ThoughtSignature)}}}, nil)
		for _, piece := range splitRunes(c.Arguments, argsPieceRunes) {
			emit(wireDelta{ToolCalls: []wireToolCall{{Index: i, Function: wireFunction{Arguments: piece}}}}, nil)
		}
	}
	finish := r.finishReason()
	emit(wireDelta{}, &finish)
	return append(events, "data: [DONE]\n\n")
}

// callID is a stable id in the shape OpenAI uses ("call_" and 24 characters).
func callID(script string, turn, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", script, turn, i)
	return fmt.Sprintf("call_%016x%08d", h.Sum64(), turn*100+i)
}

// splitRunes cuts s into pieces of at most n runes, never inside a UTF-8
// sequence. An empty s gives no pieces.
func splitRunes(s string, n int) []string {
	var pieces []string
	count, start := 0, 0
	for i := range s {
		if count == n {
			pieces = append(pieces, s[start:i])
			start, count = i, 0
		}
		count++
	}
	if start < len(s) {
		pieces = append(pieces, s[start:])
	}
	return pieces
}
