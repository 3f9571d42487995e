package responsesws

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The request frames a client sends.
const (
	// TypeCreate starts one response: the Responses request body with a
	// "type" member.
	TypeCreate = "response.create"
	// TypeProcessed tells the server the client has handled a response
	// (Codex sends it); it asks for no answer.
	TypeProcessed = "response.processed"
)

// ErrNotJSON and ErrNotObject are what ParseFrame returns (wrapped) for a
// text frame that is not a JSON object.
var (
	ErrNotJSON   = errors.New("the frame is not JSON")
	ErrNotObject = errors.New("the frame is not a JSON object")
)

// A Frame is one request frame, read: its type, what a response.create
// carries beyond the HTTP body, and every member in the order sent.
type Frame struct {
	// Type is the frame's "type" ("" when it has none).
	Type string
	// PreviousResponseID is the response this one continues: its context
	// and output come before Input.
	PreviousResponseID string
	// Warmup is true for "generate": false, a request that only prepares
	// the connection: the server answers it with an empty response.
	Warmup bool
	// Input is the new input items; a string input is one user message.
	Input []json.RawMessage
	// members are the frame's top-level members in order.
	members []member
}

type member struct {
	key   string
	value json.RawMessage
}

// ParseFrame reads a text frame.
func ParseFrame(text []byte) (Frame, error) {
	var f Frame
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return f, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if tok != json.Delim('{') {
		return f, fmt.Errorf("%w: it starts with %v", ErrNotObject, tok)
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return f, fmt.Errorf("%w: %v", ErrNotJSON, err)
		}
		key, _ := tok.(string) // an object's keys are strings
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return f, fmt.Errorf("%w: member %q: %v", ErrNotJSON, key, err)
		}
		f.members = append(f.members, member{key, v})
		switch key {
		case "type":
			json.Unmarshal(v, &f.Type)
		case "previous_response_id":
			json.Unmarshal(v, &f.PreviousResponseID)
		case "generate":
			f.Warmup = string(v) == "false"
		case "input":
			f.Input, err = inputItems(v)
			if err != nil {
				return f, err
			}
		}
	}
	if _, err := d.Token(); err != nil {
		return f, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if d.More() || d.InputOffset() < int64(len(bytes.TrimSpace(text))) {
		return f, fmt.Errorf("%w: more follows the object", ErrNotJSON)
	}
	return f, nil
}

// inputItems reads an "input": a list of items, or a string, which the API
// reads as one user message.
func inputItems(v json.RawMessage) ([]json.RawMessage, error) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		msg, _ := json.Marshal(map[string]string{"role": "user", "content": s})
		return []json.RawMessage{msg}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("%w: input is neither a list nor a string", ErrNotJSON)
	}
	return items, nil
}

// Body is the HTTP request the frame stands for, given the whole input
// (the held context and the frame's Input): the frame's members in the
// order sent, without type, previous_response_id and generate, input
// replaced, and "stream": true (a WebSocket response always streams).
func (f Frame) Body(input []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	wrote, streamed, gave := false, false, false
	write := func(key string, v []byte) {
		if wrote {
			b.WriteByte(',')
		}
		wrote = true
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	for _, m := range f.members {
		switch m.key {
		case "type", "previous_response_id", "generate":
		case "input":
			write("input", joinItems(input))
			gave = true
		case "stream":
			write("stream", []byte("true"))
			streamed = true
		default:
			write(m.key, m.value)
		}
	}
	if !gave && len(input) > 0 {
		write("input", joinItems(input))
	}
	if !streamed {
		write("stream", []byte("true"))
	}
	b.WriteByte('}')
	return b.Bytes()
}

func joinItems(items []json.RawMessage) []byte {
	b := []byte{'['}
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}
