package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/agentvcr/agentvcr/agent"
)

// chunk is one chat.completion.chunk as gateways send it. Unknown fields are
// ignored; the error members are read so that a mid-stream error is not
// mistaken for an empty chunk.
type chunk struct {
	Object  string          `json:"object"`
	Choices []choice        `json:"choices"`
	Usage   usageMember     `json:"usage"`
	Error   json.RawMessage `json:"error"`
	Message json.RawMessage `json:"message"` // {"object":"error","message":..}
	Type    json.RawMessage `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// reset zeroes the chunk for the next decode but keeps the capacity of its
// slices: encoding/json decodes into reused slice elements without zeroing them.
func (c *chunk) reset() {
	choices := c.Choices[:cap(c.Choices)]
	for i := range choices {
		pieces := choices[i].Delta.ToolCalls[:cap(choices[i].Delta.ToolCalls)]
		clear(pieces)
		choices[i] = choice{}
		choices[i].Delta.ToolCalls = pieces[:0]
	}
	*c = chunk{Choices: choices[:0]}
}

// usageMember is a chunk's "usage". Usage is advisory: a "usage" that is
// not an object is ignored (as if absent), and so is a member that is not a
// JSON integer that fits an int ("prompt_tokens": 12.0, "12", 1e3, null): it
// stays 0. Neither ever fails the chunk. Keys match as encoding/json matches
// struct fields (case-insensitively; the last duplicate wins).
type usageMember struct{ Value *agent.Usage }

func (m *usageMember) UnmarshalJSON(b []byte) error {
	var raw struct {
		PromptTokens     json.RawMessage `json:"prompt_tokens"`
		CompletionTokens json.RawMessage `json:"completion_tokens"`
		TotalTokens      json.RawMessage `json:"total_tokens"`
	}
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &raw) != nil {
		m.Value = nil
		return nil
	}
	u := new(agent.Usage)
	for _, f := range []struct {
		raw json.RawMessage
		n   *int
	}{{raw.PromptTokens, &u.PromptTokens}, {raw.CompletionTokens, &u.CompletionTokens}, {raw.TotalTokens, &u.TotalTokens}} {
		var n int
		if len(f.raw) > 0 && json.Unmarshal(f.raw, &n) == nil {
			*f.n = n
		}
	}
	m.Value = u
	return nil
}

type choice struct {
	Index        choiceIndex `json:"index"`
	Delta        delta       `json:"delta"`
	FinishReason string      `json:"finish_reason"`
}

// delta is what one choice adds. Content is a string or an array of typed
// parts; the reasoning members and refusal are kept as raw JSON and read by
// the merger (reasoning.go), so that no shape of theirs is ever an error.
type delta struct {
	Content          rawText     `json:"content"`
	Refusal          rawValue    `json:"refusal"`
	ReasoningContent rawValue    `json:"reasoning_content"`
	Reasoning        rawValue    `json:"reasoning"`
	ReasoningDetails rawValue    `json:"reasoning_details"`
	ToolCalls        []toolPiece `json:"tool_calls"`
}

// toolPiece is one tool_calls[] entry of a delta: a piece of a call.
// Extra is extra_content (Gemini's thought signature), echoed as received.
type toolPiece struct {
	Index    optIndex      `json:"index"`
	ID       string        `json:"id"`
	Function pieceFunction `json:"function"`
	Extra    rawValue      `json:"extra_content"`
}

// choiceIndex is a choice's index: set when it is an integer; anything else
// (missing, null, a string) leaves it unset, which counts as 0, and is never
// an error.
type choiceIndex struct {
	N   int
	Set bool
}

func (x *choiceIndex) UnmarshalJSON(b []byte) error {
	n, err := strconv.Atoi(string(b))
	*x = choiceIndex{N: n, Set: err == nil}
	return nil
}

// pieceFunction is the function member of a tool_calls[] entry.
type pieceFunction struct {
	Name      string  `json:"name"`
	Arguments rawArgs `json:"arguments"`
}

// optIndex is a tool call index that may be missing, null or any integer.
type optIndex struct {
	N   int
	Set bool
}

func (x *optIndex) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = optIndex{}
		return nil
	}
	s := string(bytes.Trim(b, `"`))
	n, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int(f)) {
			return fmt.Errorf("tool call index %s is not an integer", b)
		}
		n = int(f)
	}
	*x = optIndex{N: n, Set: true}
	return nil
}

// rawText is delta.content kept as its JSON bytes (nil for null): a string
// (quotes included, decoded straight into the buffer that collects it), or an
// array of typed parts (or one part as an object) that the merger reads. The
// bytes point into the chunk's data and are valid while it is.
type rawText []byte

func (t *rawText) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = nil
		return nil
	}
	if len(b) < 2 || (b[0] != '"' && b[0] != '[' && b[0] != '{') {
		return fmt.Errorf("content is %s, not a string or an array of parts", b)
	}
	*t = b
	return nil
}

// rawValue is any JSON value kept as its bytes, nil for null. Like rawText
// it points into the chunk's data.
type rawValue []byte

func (v *rawValue) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = nil
		return nil
	}
	*v = b
	return nil
}

// rawArgs is function.arguments: a JSON string (appended) or any other JSON
// value such as an object (serialized, and it replaces the text).
type rawArgs []byte

func (a *rawArgs) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*a = nil
		return nil
	}
	*a = b
	return nil
}
