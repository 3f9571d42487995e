package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrTruncatedStream is returned when a stream ends with neither a
// finish_reason nor [DONE]: the turn may be incomplete.
var ErrTruncatedStream = errors.New("stream ended without a finish_reason or [DONE]")

// Usage is the token count a gateway reports. The last one in a stream wins.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Turn is one merged model response.
type Turn struct {
	Text         string     // all content deltas, in order
	FinishReason string     // the first non-empty finish_reason
	ToolTurn     bool       // FinishReason == "tool_calls" or at least one call merged
	ToolCalls    []ToolCall // sorted by index, ids and "{}" filled in
	Usage        *Usage     // the last usage seen, nil when none
	Thinking     []Thinking // reasoning blocks to echo, in stream order (Messages)
	Warnings     []string   // shapes the merger noticed and worked around; nil when none
}

// merger folds chunks into a Turn.
type merger struct {
	text     []byte
	finish   string
	usage    *Usage
	acc      accumulator
	chunks   int
	finished bool  // a non-empty finish_reason was seen
	c        chunk // reused between chunks to keep allocations per chunk low
	dec      chunkDecoder
	jsonOnly bool // decode every chunk with encoding/json (tests compare the paths)
}

// MergeStream reads a raw chat-completions SSE stream and merges it into one
// turn. On error it returns what was merged so far together with the error: a
// *StreamError for an error the stream carried, ErrTruncatedStream for a
// stream cut short, or a read or decode error.
func MergeStream(r io.Reader) (*Turn, error) {
	return mergeStream(r, false)
}

func mergeStream(r io.Reader, jsonOnly bool) (*Turn, error) {
	m := merger{jsonOnly: jsonOnly}
	sr := newSSEReader(r)
	for {
		ev, err := sr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return m.turn(), fmt.Errorf("reading stream: %w", err)
		}
		if ev.Error {
			return m.turn(), eventError(ev.Data)
		}
		data := bytes.TrimSpace(ev.Data)
		switch string(data) {
		case "", "null":
			continue
		case "[DONE]":
			return m.turn(), nil
		}
		if err := m.add(data); err != nil {
			return m.turn(), err
		}
	}
	if !m.finished {
		return m.turn(), ErrTruncatedStream
	}
	return m.turn(), nil
}

// add merges one chunk's JSON.
func (m *merger) add(data []byte) error {
	m.chunks++
	c := &m.c
	c.reset()
	if m.jsonOnly || !scanChunk(data, c) {
		c.reset()
		if err := m.dec.decode(data, c); err != nil {
			return fmt.Errorf("chunk %d is not a valid chunk: %w", m.chunks, err)
		}
	}
	if err := chunkError(c, data); err != nil {
		return err
	}
	if c.Usage.Value != nil {
		m.usage = c.Usage.Value
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if len(ch.Delta.Content) > 0 {
			m.text = appendUnquoted(m.text, ch.Delta.Content)
		}
		for j := range ch.Delta.ToolCalls {
			m.acc.add(&ch.Delta.ToolCalls[j])
		}
		if ch.FinishReason != "" {
			if !m.finished {
				m.finish = ch.FinishReason
			}
			m.finished = true
		}
	}
	return nil
}

// turn returns the merged turn so far.
func (m *merger) turn() *Turn {
	t := &Turn{Text: string(m.text), FinishReason: m.finish, ToolCalls: m.acc.drain(), Usage: m.usage}
	t.ToolTurn = t.FinishReason == "tool_calls" || len(t.ToolCalls) > 0
	return t
}
