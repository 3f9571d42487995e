package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/byindex"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// Kinds of content block the merger keeps apart.
const (
	blockKindText uint8 = iota
	blockKindToolUse
	blockKindThinking
	blockKindRedacted
	blockKindOther // server_tool_use, web_search_tool_result, ...: not the agent's
)

// msgBlock is one content block being merged. A stream of many tool calls
// holds one per call until the end, so it keeps to 96 bytes: what only some
// blocks have is in rare.
type msgBlock struct {
	id, name string
	body     []byte     // tool_use: the partial_json pieces; text or thinking: the text
	rare     *blockRare // nil for most blocks
	index    int        // the index its deltas and stop name (index.go)
	key      int        // where it sorts among the blocks (index.go)
	seq      int        // its place among the blocks started
	kind     uint8
	deltas   bool // tool_use: at least one input_json_delta came
	reused   bool // it started at an index whose block had stopped
	stopped  bool // content_block_stop came
}

// blockRare is what few blocks carry: a tool_use's non-empty start input, a
// thinking block's signature, a redacted block's data.
type blockRare struct {
	start     []byte // tool_use: the start's input, compacted, when a non-empty object
	signature string
	data      string
}

// more returns the block's rare members, making room for them.
func (b *msgBlock) more() *blockRare {
	if b.rare == nil {
		b.rare = &blockRare{}
	}
	return b.rare
}

// signature is a thinking block's signature, "" when none came.
func (b *msgBlock) signature() string {
	if b.rare == nil {
		return ""
	}
	return b.rare.signature
}

// msgMerger folds Messages events into a Turn.
type msgMerger struct {
	events     int
	id         string // the message's id, once message_start came
	started    bool
	stopped    bool // message_stop came
	stopReason string
	usage      *msgUsage
	blocks     byindex.Table[*msgBlock] // the latest block at each index (nil: none)
	lastIndex  int                      // lastBlock is blocks[lastIndex], when not nil
	lastBlock  *msgBlock
	order      []*msgBlock // every block, in the order they started
	maxIndex   int         // the highest index started
	slab       []msgBlock  // blocks are carved from this slab
	argSlab    []byte      // each tool_use's arguments start in a window of this slab
	ev         msgEvent    // reused between events
	bd         blockDelta  // reused between events
	tmpl       eventTemplates
	jsonOnly   bool // decode every event with encoding/json (tests compare the paths)
}

// add merges one event's JSON.
func (m *msgMerger) add(data []byte) error {
	m.events++
	fast := ""
	if !m.jsonOnly {
		if fast = m.tmpl.match(data, &m.bd); fast == "" {
			m.bd.index = -1 // a stop without an index stops nothing
			fast = scanEventTemplate(data, &m.bd, &m.tmpl)
		}
	}
	switch fast {
	case "content_block_delta":
		return m.delta(&m.bd)
	case "message_stop":
		m.stopped = true
		return nil
	case "content_block_start":
		st := &m.bd.start
		b := m.newBlock(st.typ == "tool_use")
		if st.typ == "tool_use" {
			b.kind, b.id, b.name = blockKindToolUse, string(st.id), internName(st.name)
		}
		return m.addBlock(m.bd.index, b)
	case "content_block_stop":
		m.stop(m.bd.index)
		return nil
	case "ping":
		return nil
	}
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
		if ev.Index == nil {
			return fmt.Errorf("event %d: content_block_delta without index", m.events)
		}
		if !decodedDelta(ev, &m.bd) {
			if m.deltaBlock(*ev.Index) == nil {
				return fmt.Errorf("event %d: delta for content block %d, which never started", m.events, *ev.Index)
			}
			return nil
		}
		return m.delta(&m.bd)
	case "message_delta":
		if ev.Delta.StopReason != "" && m.stopReason == "" {
			m.stopReason = ev.Delta.StopReason
		}
		m.addUsage(ev.Usage)
	case "message_stop":
		m.stopped = true
	case "content_block_stop":
		if ev.Index != nil {
			m.stop(*ev.Index)
		}
	case "error":
		return agent.EventError(data)
	}
	// ping and unknown types change nothing.
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
	if ev.Message == nil {
		return nil
	}
	m.addUsage(ev.Message.Usage)
	if m.stopReason == "" {
		m.stopReason = ev.Message.StopReason
	}
	return m.prefilled(ev.Message.Content)
}

func (m *msgMerger) blockStart(ev *msgEvent) error {
	if ev.Index == nil || ev.ContentBlock == nil {
		return fmt.Errorf("event %d: content_block_start without index or content_block", m.events)
	}
	return m.addBlock(*ev.Index, m.startedBlock(ev.ContentBlock))
}

// startedBlock is the block a content_block_start's content_block begins.
func (m *msgMerger) startedBlock(cb *msgBlockStart) *msgBlock {
	b := m.newBlock(cb.Type == "tool_use")
	b.id, b.name = cb.ID, cb.Name
	switch cb.Type {
	case "text":
		b.kind, b.body = blockKindText, []byte(cb.Text)
	case "tool_use":
		b.kind = blockKindToolUse
		var c bytes.Buffer
		if json.Compact(&c, cb.Input) == nil && c.Len() > 2 && c.Bytes()[0] == '{' {
			b.more().start = c.Bytes()
		}
	case "thinking":
		b.kind, b.body = blockKindThinking, []byte(cb.Thinking)
		if cb.Signature != "" {
			b.more().signature = cb.Signature
		}
	case "redacted_thinking":
		b.kind = blockKindRedacted
		b.more().data = cb.Data
	default:
		b.kind = blockKindOther
	}
	return b
}

// Slab sizes of the Messages merger: blocks per slab, and the argument
// window each tool_use starts with (arguments that outgrow it move to a
// buffer of their own).
const (
	blockSlab     = 16
	msgArgWindow  = 64
	msgArgSlabLen = 64 * msgArgWindow
)

// newBlock carves a block from the slab (and, for a tool_use, its argument
// window), so that a block costs no allocation of its own.
func (m *msgMerger) newBlock(tool bool) *msgBlock {
	if len(m.slab) == cap(m.slab) {
		m.slab = make([]msgBlock, 0, blockSlab) // earlier slabs stay where the map points
	}
	m.slab = append(m.slab, msgBlock{})
	b := &m.slab[len(m.slab)-1]
	if tool {
		if len(m.argSlab)+msgArgWindow > cap(m.argSlab) {
			m.argSlab = make([]byte, 0, msgArgSlabLen)
		}
		n := len(m.argSlab)
		m.argSlab = m.argSlab[:n+msgArgWindow]
		b.body = m.argSlab[n : n : n+msgArgWindow]
	}
	return b
}

// internName returns the names of the agent's tools without allocating.
func internName(b []byte) string {
	switch string(b) {
	case "glob":
		return "glob"
	case "grep":
		return "grep"
	case "read_file":
		return "read_file"
	}
	return string(b)
}

// delta applies one content_block_delta to its block, found by index.
func (m *msgMerger) delta(d *blockDelta) error {
	b := m.deltaBlock(d.index)
	if b == nil {
		return fmt.Errorf("event %d: delta for content block %d, which never started", m.events, d.index)
	}
	add := func(dst []byte) []byte {
		if d.quoted {
			return jsonscan.AppendUnquoted(dst, d.value)
		}
		return append(dst, d.value...)
	}
	switch {
	case d.typ == msgDeltaText && b.kind == blockKindText:
		b.body = add(b.body)
	case d.typ == msgDeltaInputJSON && b.kind == blockKindToolUse:
		b.deltas = true
		b.body = add(b.body)
	case d.typ == msgDeltaThinking && b.kind == blockKindThinking:
		b.body = add(b.body)
	case d.typ == msgDeltaSignature && b.kind == blockKindThinking:
		r := b.more()
		r.signature = string(add([]byte(r.signature)))
	}
	// Other delta types (citations_delta, a server tool's input) are not
	// the agent's.
	return nil
}

// decodedDelta is the blockDelta of an event encoding/json decoded; false
// when it carries nothing the merger reads.
func decodedDelta(ev *msgEvent, d *blockDelta) bool {
	*d = blockDelta{index: *ev.Index, typ: ev.Delta.Type}
	switch ev.Delta.Type {
	case msgDeltaText:
		d.value = []byte(ev.Delta.Text)
	case msgDeltaInputJSON:
		if ev.Delta.PartialJSON == nil {
			return false
		}
		d.value = []byte(*ev.Delta.PartialJSON)
	case msgDeltaThinking:
		d.value = []byte(ev.Delta.Thinking)
	case msgDeltaSignature:
		d.value = []byte(ev.Delta.Signature)
	default:
		return false
	}
	return true
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
func (m *msgMerger) turn() *agent.Turn {
	t := &agent.Turn{FinishReason: m.stopReason}
	if n := m.toolBlocks(); n > 0 {
		t.ToolCalls = make([]agent.ToolCall, 0, n)
	}
	blocks := m.sorted()
	size := 0
	for _, b := range blocks {
		if b.kind == blockKindToolUse && b.deltas {
			size += len(b.body)
		}
	}
	var all strings.Builder // one string that every call's arguments slice, copied once
	all.Grow(size)
	for _, b := range blocks {
		if b.kind == blockKindToolUse && b.deltas {
			all.Write(b.body)
		}
	}
	allArgs := all.String()
	var text []byte
	for _, b := range blocks {
		switch b.kind {
		case blockKindText:
			text = append(text, b.body...)
		case blockKindThinking:
			t.Thinking = append(t.Thinking, agent.Thinking{Type: agent.ThinkingText, Text: string(b.body), Signature: b.signature()})
		case blockKindRedacted:
			t.Thinking = append(t.Thinking, agent.Thinking{Type: agent.ThinkingRedacted, Data: b.more().data})
		case blockKindToolUse:
			var args string
			if b.deltas {
				args, allArgs = allArgs[:len(b.body)], allArgs[len(b.body):]
			}
			t.ToolCalls = append(t.ToolCalls, b.call(args))
		}
	}
	t.Text = string(text)
	t.ToolTurn = t.FinishReason == "tool_use" || len(t.ToolCalls) > 0
	if u := m.usage; u != nil {
		in := val(u.InputTokens) + val(u.CacheCreationInputTokens) + val(u.CacheReadInputTokens)
		t.Usage = &agent.Usage{PromptTokens: in, CompletionTokens: val(u.OutputTokens), TotalTokens: in + val(u.OutputTokens)}
	}
	return t
}

func (m *msgMerger) toolBlocks() int {
	n := 0
	for _, b := range m.order {
		if b.kind == blockKindToolUse {
			n++
		}
	}
	return n
}

// call is the tool call a tool_use block merged into: once a delta came the
// deltas are the arguments (the start's input is a placeholder, or was
// repeated by them, trpc-group/trpc-agent-go #1649); with none, the start's
// non-empty input is; "{}" when both are empty. deltaArgs is the deltas
// joined, as a string.
func (b *msgBlock) call(deltaArgs string) agent.ToolCall {
	args := "{}"
	switch {
	case b.deltas && len(bytes.TrimSpace(b.body)) > 0:
		args = deltaArgs
	case !b.deltas && b.rare != nil && len(b.rare.start) > 0:
		args = string(b.rare.start)
	}
	id := b.id
	if id == "" {
		id = "toolu_" + strconv.Itoa(b.index)
		if b.reused {
			id += "_" + strconv.Itoa(b.seq)
		}
	}
	return agent.ToolCall{ID: id, Type: "function", Function: agent.FunctionCall{Name: b.name, Arguments: args}}
}

func val(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
