package converse

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/byindex"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

// truncated is the ErrTruncatedStream of the Converse format.
type truncated struct{}

func (truncated) Error() string { return "stream ended without a messageStop" }

func (truncated) Is(target error) bool { return target == agent.ErrTruncatedStream }

// event is one event of the logical form: the union, one member set.
type event struct {
	ContentBlockStart *struct {
		ContentBlockIndex int `json:"contentBlockIndex"`
		Start             struct {
			ToolUse *struct {
				ToolUseID string `json:"toolUseId"`
				Name      string `json:"name"`
			} `json:"toolUse"`
		} `json:"start"`
	} `json:"contentBlockStart"`
	ContentBlockDelta *struct {
		ContentBlockIndex int `json:"contentBlockIndex"`
		Delta             struct {
			Text    *string `json:"text"`
			ToolUse *struct {
				Input string `json:"input"`
			} `json:"toolUse"`
			ReasoningContent *struct {
				Text      string `json:"text"`
				Signature string `json:"signature"`
			} `json:"reasoningContent"`
		} `json:"delta"`
	} `json:"contentBlockDelta"`
	MessageStop *struct {
		StopReason string `json:"stopReason"`
	} `json:"messageStop"`
	Metadata *struct {
		Usage *struct {
			InputTokens  int `json:"inputTokens"`
			OutputTokens int `json:"outputTokens"`
			TotalTokens  int `json:"totalTokens"`
		} `json:"usage"`
	} `json:"metadata"`
}

// call is one toolUse block as it merges.
type call struct {
	index    int
	id, name string
	input    []byte
}

type merger struct {
	text     []byte
	thinking []agent.Thinking
	calls    byindex.Table[*call]
	order    []*call
	stop     string
	stopped  bool
	usage    *agent.Usage
}

// Merge reads a ConverseStream stream, framed or in its logical form, and
// merges it into one turn; see the package documentation. On error it
// returns the turn merged so far: a *agent.StreamError for an exception,
// an error matching agent.ErrTruncatedStream for a stream cut before its
// messageStop, or a read or decode error (a framing error names its byte
// offset).
func Merge(r io.Reader) (*agent.Turn, error) { return merge(logical(r)) }

func merge(r io.Reader) (*agent.Turn, error) {
	m := &merger{}
	_, err := sse.Each(r, func(data []byte, isError bool) (bool, error) {
		if isError {
			return false, agent.EventError(data)
		}
		return false, m.add(data)
	})
	switch {
	case err != nil:
		return m.turn(), err
	case !m.stopped:
		return m.turn(), truncated{}
	}
	return m.turn(), nil
}

func (m *merger) add(data []byte) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("decoding event: %w", err)
	}
	switch {
	case ev.ContentBlockStart != nil:
		s := ev.ContentBlockStart
		if u := s.Start.ToolUse; u != nil {
			c := m.callAt(s.ContentBlockIndex)
			c.id, c.name = u.ToolUseID, u.Name
		}
	case ev.ContentBlockDelta != nil:
		d := ev.ContentBlockDelta
		switch {
		case d.Delta.Text != nil:
			m.text = append(m.text, *d.Delta.Text...)
		case d.Delta.ToolUse != nil:
			c := m.callAt(d.ContentBlockIndex)
			c.input = append(c.input, d.Delta.ToolUse.Input...)
		case d.Delta.ReasoningContent != nil:
			m.reason(d.Delta.ReasoningContent.Text, d.Delta.ReasoningContent.Signature)
		}
	case ev.MessageStop != nil:
		m.stop, m.stopped = ev.MessageStop.StopReason, true
	case ev.Metadata != nil && ev.Metadata.Usage != nil:
		u := ev.Metadata.Usage
		m.usage = &agent.Usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.TotalTokens}
	}
	return nil
}

// callAt is the call at a block index, opened when none is.
func (m *merger) callAt(index int) *call {
	if c, ok := m.calls.Get(index); ok {
		return c
	}
	c := &call{index: index}
	m.calls.Set(index, c)
	m.order = append(m.order, c)
	return c
}

// reason joins reasoning text to the last thinking block; a signature
// ends it.
func (m *merger) reason(text, signature string) {
	if n := len(m.thinking); n == 0 || m.thinking[n-1].Signature != "" {
		m.thinking = append(m.thinking, agent.Thinking{Type: agent.ThinkingText})
	}
	last := &m.thinking[len(m.thinking)-1]
	last.Text += text
	last.Signature += signature
}

func (m *merger) turn() *agent.Turn {
	t := &agent.Turn{Text: string(m.text), FinishReason: m.stop, Usage: m.usage, Thinking: m.thinking}
	calls := slices.Clone(m.order)
	slices.SortStableFunc(calls, func(a, b *call) int { return a.index - b.index })
	for _, c := range calls {
		id := c.id
		if id == "" {
			id = fmt.Sprintf("tooluse_%d", c.index)
		}
		args := string(c.input)
		if args == "" {
			args = "{}"
		}
		t.ToolCalls = append(t.ToolCalls, agent.ToolCall{ID: id, Type: "function", Function: agent.FunctionCall{Name: c.name, Arguments: args}})
	}
	t.ToolTurn = t.FinishReason == "tool_use" || len(t.ToolCalls) > 0
	return t
}
