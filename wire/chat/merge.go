package chat

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
	"github.com/agentvcr/agentvcr/wire/internal/textbuf"
)

// answer is what the choices merged into it add up to: the whole turn, or
// one choice of several.
type answer struct {
	text     textbuf.Buffer
	thinking []thinkingBuf // reasoning blocks; a change of type starts a new one
	finish   string
	finished bool // a non-empty finish_reason was seen
	acc      accumulator
}

// thinkingBuf is a reasoning block being merged.
type thinkingBuf struct {
	typ  string // ThinkingText or ThinkingReasoning
	text []byte
}

// merger folds chunks into a Turn.
//
// Choice indexes: while they never go down, every choice is part of one
// answer (z.ai GLM counts the parts of one message in the choice index;
// LiteLLM puts reasoning at 0 and text at 1). Once an index is lower than the
// one before, the stream carries several answers (n > 1, interleaved): the
// turn is the first choice's alone (the index the stream began with, 0 for
// OpenAI) and the others are dropped. So that nothing has to be re-read, the
// first choice is also merged on its own (first) from the moment another
// index appears.
type merger struct {
	all      answer  // every choice
	first    *answer // the first choice alone, once another index appeared
	several  bool    // a choice index went down: the turn is first
	keep     int     // the first choice's index
	last     int     // the index of the latest choice entry
	entries  int     // choice entries seen
	usage    *agent.Usage
	chunks   int
	c        chunk // reused between chunks to keep allocations per chunk low
	dec      chunkDecoder
	head     chunkHead     // how the last chunk the scanner read began
	tmpl     chunkTemplate // the last chunk of a shape streams repeat
	jsonOnly bool          // decode every chunk with encoding/json (tests compare the paths)
}

// Merge reads a raw chat-completions SSE stream and merges it into one
// turn. On error it returns what was merged so far together with the error: a
// *StreamError for an error the stream carried, ErrTruncatedStream for a
// stream cut short, or a read or decode error.
func Merge(r io.Reader) (*agent.Turn, error) {
	return merge(r, false)
}

func merge(r io.Reader, jsonOnly bool) (*agent.Turn, error) {
	m := merger{jsonOnly: jsonOnly}
	done, err := sse.Each(r, func(data []byte, isError bool) (bool, error) {
		switch {
		case isError:
			return false, agent.EventError(data)
		case string(data) == "[DONE]":
			return true, nil
		}
		return false, m.add(data)
	})
	switch {
	case err != nil:
		return m.turn(), err
	case done:
		return m.end()
	case !m.result().finished:
		return m.turn(), agent.ErrTruncatedStream
	}
	return m.end()
}

// add merges one chunk's JSON.
func (m *merger) add(data []byte) error {
	m.chunks++
	if !m.jsonOnly {
		if c := m.tmpl.match(data); c != nil {
			m.choice(&c.Choices[0]) // no usage, no error: see chunkTemplate
			return nil
		}
	}
	c := &m.c
	c.reset()
	if m.jsonOnly || !scanChunkTemplate(data, c, &m.head, &m.tmpl) {
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
		m.choice(&c.Choices[i])
	}
	return nil
}

// choice merges one choices[] entry by the choice-index rule on merger.
func (m *merger) choice(ch *choice) {
	idx := 0
	if ch.Index.Set {
		idx = ch.Index.N
	}
	if m.entries == 0 {
		m.keep = idx
	} else if idx < m.last {
		m.several = true
	}
	m.entries++
	m.last = idx
	if idx != m.keep && m.first == nil {
		first := m.all.clone()
		m.first = &first
	}
	if !m.several {
		m.all.add(ch)
	}
	if idx == m.keep && m.first != nil {
		m.first.add(ch)
	}
}

// add merges one choice's delta and finish_reason into the answer.
func (a *answer) add(ch *choice) {
	d := &ch.Delta
	a.think(agent.ThinkingReasoning, appendContent(&a.text, nil, d.Content))
	if len(d.Refusal) > 0 && d.Refusal[0] == '"' {
		a.text.Tail = jsonscan.AppendUnquoted(a.text.Room(len(d.Refusal)), d.Refusal)
	}
	if r, had := appendReasoningField(nil, d.ReasoningContent); had {
		a.think(agent.ThinkingText, r)
	} else if r, had := appendReasoningField(nil, d.Reasoning); had {
		a.think(agent.ThinkingReasoning, r)
	} else if r, had := appendReasoningField(nil, d.ReasoningDetails); had {
		a.think(agent.ThinkingReasoning, r)
	}
	for j := range d.ToolCalls {
		a.acc.add(&d.ToolCalls[j])
	}
	if ch.FinishReason != "" {
		if !a.finished {
			a.finish = ch.FinishReason
		}
		a.finished = true
	}
}

// think appends reasoning text of one type: to the last block when it has
// that type, else as a new block.
func (a *answer) think(typ string, text []byte) {
	if len(text) == 0 {
		return
	}
	if n := len(a.thinking); n > 0 && a.thinking[n-1].typ == typ {
		a.thinking[n-1].text = append(a.thinking[n-1].text, text...)
		return
	}
	a.thinking = append(a.thinking, thinkingBuf{typ: typ, text: text})
}

// clone returns a copy that shares nothing with a.
func (a *answer) clone() answer {
	b := answer{text: a.text.Clone(), finish: a.finish, finished: a.finished, acc: a.acc.clone()}
	for _, th := range a.thinking {
		b.thinking = append(b.thinking, thinkingBuf{typ: th.typ, text: bytes.Clone(th.text)})
	}
	return b
}

// result is the answer the turn is made of.
func (m *merger) result() *answer {
	if m.several {
		return m.first
	}
	return &m.all
}

// turn returns the merged turn so far.
func (m *merger) turn() *agent.Turn {
	a := m.result()
	t := &agent.Turn{Text: a.text.String(), FinishReason: a.finish, ToolCalls: a.acc.drain(), Usage: m.usage}
	for _, th := range a.thinking {
		t.Thinking = append(t.Thinking, agent.Thinking{Type: th.typ, Text: string(th.text)})
	}
	t.ToolTurn = t.FinishReason == "tool_calls" || len(t.ToolCalls) > 0
	return t
}
