package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Kinds of content block the merger keeps apart.
const (
	kindText = iota
	kindToolUse
	kindThinking
	kindRedacted
	kindOther // server_tool_use, web_search_tool_result, ...: not the agent's
)

// msgBlock is one content block being merged.
type msgBlock struct {
	kind      int
	id, name  string
	start     []byte // tool_use: the start's input, compacted, when a non-empty object
	args      []byte // tool_use: the partial_json pieces
	deltas    bool   // tool_use: at least one input_json_delta came
	text      []byte // text or thinking
	signature string
	data      string
}

// msgMerger folds Messages events into a Turn.
type msgMerger struct {
	events     int
	id         string // the message's id, once message_start came
	started    bool
	stopped    bool // message_stop came
	stopReason string
	usage      *msgUsage
	blocks     map[int]*msgBlock
	ev         msgEvent
}

// add merges one event's JSON.
func (m *msgMerger) add(data []byte) error {
	m.events++
	ev := &m.ev
	*ev = msgEvent{}
	if err := json.Unmarshal(data, ev); err != nil {
		return fmt.Errorf("event %d is not a valid event: %w", m.events, err)
	}
	switch ev.Type {
	case "message_start":
		return m.start(ev)
	case "content_block_start":
		return m.blockStart(ev)
	case "content_block_delta":
		return m.blockDelta(ev)
	case "message_delta":
		if ev.Delta.StopReason != "" && m.stopReason == "" {
			m.stopReason = ev.Delta.StopReason
		}
		m.addUsage(ev.Usage)
	case "message_stop":
		m.stopped = true
	case "error":
		return eventError(data)
	}
	// ping, content_block_stop and unknown types change nothing.
	return nil
}

// start handles message_start: the first one names the message; a repeat
// with the same id is ignored (vercel/ai #18402); another id is a second
// message.
func (m *msgMerger) start(ev *msgEvent) error {
	id := ""
	if ev.Message != nil {
		id = ev.Message.ID
	}
	if m.started {
		if id == m.id {
			return nil
		}
		return fmt.Errorf("event %d: message %q after message %q: %w", m.events, id, m.id, ErrSecondMessage)
	}
	m.started, m.id = true, id
	if ev.Message != nil {
		m.addUsage(ev.Message.Usage)
	}
	return nil
}

func (m *msgMerger) blockStart(ev *msgEvent) error {
	if ev.Index == nil || ev.ContentBlock == nil {
		return fmt.Errorf("event %d: content_block_start without index or content_block", m.events)
	}
	if m.blocks == nil {
		m.blocks = make(map[int]*msgBlock)
	}
	if _, dup := m.blocks[*ev.Index]; dup {
		return fmt.Errorf("event %d: content block %d started twice", m.events, *ev.Index)
	}
	cb := ev.ContentBlock
	b := &msgBlock{id: cb.ID, name: cb.Name}
	switch cb.Type {
	case "text":
		b.kind, b.text = kindText, []byte(cb.Text)
	case "tool_use":
		b.kind = kindToolUse
		var c bytes.Buffer
		if json.Compact(&c, cb.Input) == nil && c.Len() > 2 && c.Bytes()[0] == '{' {
			b.start = c.Bytes()
		}
	case "thinking":
		b.kind, b.text, b.signature = kindThinking, []byte(cb.Thinking), cb.Signature
	case "redacted_thinking":
		b.kind, b.data = kindRedacted, cb.Data
	default:
		b.kind = kindOther
	}
	m.blocks[*ev.Index] = b
	return nil
}

func (m *msgMerger) blockDelta(ev *msgEvent) error {
	if ev.Index == nil {
		return fmt.Errorf("event %d: content_block_delta without index", m.events)
	}
	b, ok := m.blocks[*ev.Index]
	if !ok {
		return fmt.Errorf("event %d: delta for content block %d, which never started", m.events, *ev.Index)
	}
	d := &ev.Delta
	switch {
	case d.Type == "text_delta" && b.kind == kindText:
		b.text = append(b.text, d.Text...)
	case d.Type == "input_json_delta" && b.kind == kindToolUse && d.PartialJSON != nil:
		b.deltas = true
		b.args = append(b.args, *d.PartialJSON...)
	case d.Type == "thinking_delta" && b.kind == kindThinking:
		b.text = append(b.text, d.Thinking...)
	case d.Type == "signature_delta" && b.kind == kindThinking:
		b.signature += d.Signature
	}
	// Other delta types (citations_delta, a server tool's input) are not
	// the agent's.
	return nil
}

func (m *msgMerger) addUsage(u *msgUsage) {
	if u == nil {
		return
	}
	if m.usage == nil {
		m.usage = &msgUsage{}
	}
	for _, f := range []struct {
		dst **int
		src *int
	}{
		{&m.usage.InputTokens, u.InputTokens},
		{&m.usage.OutputTokens, u.OutputTokens},
		{&m.usage.CacheCreationInputTokens, u.CacheCreationInputTokens},
		{&m.usage.CacheReadInputTokens, u.CacheReadInputTokens},
	} {
		if f.src != nil {
			*f.dst = f.src
		}
	}
}

// turn returns the merged turn so far: blocks in index order.
func (m *msgMerger) turn() *Turn {
	t := &Turn{FinishReason: m.stopReason}
	indexes := make([]int, 0, len(m.blocks))
	for i := range m.blocks {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	var text []byte
	for _, i := range indexes {
		b := m.blocks[i]
		switch b.kind {
		case kindText:
			text = append(text, b.text...)
		case kindThinking:
			t.Thinking = append(t.Thinking, Thinking{Type: ThinkingText, Text: string(b.text), Signature: b.signature})
		case kindRedacted:
			t.Thinking = append(t.Thinking, Thinking{Type: ThinkingRedacted, Data: b.data})
		case kindToolUse:
			t.ToolCalls = append(t.ToolCalls, b.call(i))
		}
	}
	t.Text = string(text)
	t.ToolTurn = t.FinishReason == "tool_use" || len(t.ToolCalls) > 0
	if u := m.usage; u != nil {
		in := val(u.InputTokens) + val(u.CacheCreationInputTokens) + val(u.CacheReadInputTokens)
		t.Usage = &Usage{PromptTokens: in, CompletionTokens: val(u.OutputTokens), TotalTokens: in + val(u.OutputTokens)}
	}
	return t
}

// call is the tool call a tool_use block merged into: once a delta came the
// deltas are the arguments (the start's input is a placeholder, or was
// repeated by them, trpc-group/trpc-agent-go #1649); with none, the start's
// non-empty input is; "{}" when both are empty.
func (b *msgBlock) call(index int) ToolCall {
	args := "{}"
	switch {
	case b.deltas && len(bytes.TrimSpace(b.args)) > 0:
		args = string(b.args)
	case !b.deltas && len(b.start) > 0:
		args = string(b.start)
	}
	id := b.id
	if id == "" {
		id = "toolu_" + strconv.Itoa(index)
	}
	return ToolCall{ID: id, Type: "function", Function: FunctionCall{Name: b.name, Arguments: args}}
}

func val(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
