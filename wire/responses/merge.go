package responses

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

// ErrSecondResponse is wrapped by the error a Responses stream gives when it
// carries a second response after the first: a second response.created (a
// lifecycle event with another response id is the same response, its id
// rotated).
var ErrSecondResponse = errors.New("a second response in one stream")

// respTruncated is the error of a Responses stream that ends before
// response.completed. It matches ErrTruncatedStream.
type respTruncated struct{}

func (respTruncated) Error() string        { return "stream ended before response.completed" }
func (respTruncated) Is(target error) bool { return target == agent.ErrTruncatedStream }

// respMerger folds the events of an OpenAI Responses stream into a Turn.
type respMerger struct {
	items      respItems
	ev         respEvent         // reused between events
	fast       respDelta         // the fast path's event
	tmpl       respTemplates     // the last delta and done events the fast path read
	scratch    []byte            // a done event's unquoted text
	item       respItemJSON      // the fast path's output item
	names      map[string]string // tool names seen, each allocated once (at most 64)
	events     int
	responseID string
	created    bool
	completed  bool
	usage      *agent.Usage
	warnings   []string

	seq      int64 // the last sequence_number seen
	hasSeq   bool
	seqBack  int    // events whose sequence_number is not above the one before
	seqFirst string // the first of them, "5 after 7"
	afterEnd int    // events ignored after response.completed
}

// Merge reads a raw OpenAI Responses SSE stream
// (POST /responses with stream: true) and merges it into one turn: the
// text of the message items and the function calls, in output_index order.
// On error it returns what was merged so far together with the error: a
// *StreamError for error, response.failed or response.incomplete, an error
// matching ErrTruncatedStream for a stream that ends before
// response.completed, ErrSecondResponse wrapped, or a read or decode error.
func Merge(r io.Reader) (*agent.Turn, error) {
	m := respMerger{items: newRespItems()}
	_, err := sse.Each(r, func(data []byte, isError bool) (bool, error) {
		switch string(data) {
		case "", "null":
			return false, nil // an error event with no data says nothing
		case "[DONE]":
			return true, nil
		}
		return false, m.add(data, isError)
	})
	if err != nil {
		return m.turn(), err
	}
	return m.end()
}

func (m *respMerger) end() (*agent.Turn, error) {
	if !m.completed {
		return m.turn(), respTruncated{}
	}
	return m.turn(), nil
}

// add merges one event's JSON.
func (m *respMerger) add(data []byte, sseError bool) error {
	m.events++
	if !sseError && !m.completed && (m.tmpl.match(data, &m.fast) || scanRespDeltaTemplate(data, &m.fast, &m.tmpl)) {
		m.sequence(int64(m.fast.seq), m.fast.hasSeq)
		m.delta(&m.fast)
		return nil
	}
	m.ev = respEvent{}
	ev := &m.ev
	if err := json.Unmarshal(data, ev); err != nil {
		return fmt.Errorf("event %d is not a valid Responses event: %w", m.events, err)
	}
	if sseError || ev.Type == "error" {
		return respEventError(ev, data)
	}
	if m.completed {
		if ev.Type == "response.created" {
			return m.secondResponse(ev.Response)
		}
		m.afterEnd++
		return nil
	}
	if ev.SequenceNumber != nil {
		m.sequence(*ev.SequenceNumber, true)
	}
	switch ev.Type {
	case "response.created", "response.in_progress", "response.queued":
		if ev.Type == "response.created" && m.created {
			return m.secondResponse(ev.Response)
		}
		m.created = m.created || ev.Type == "response.created"
		return m.sameResponse(ev.Response)
	case "response.completed":
		if err := m.sameResponse(ev.Response); err != nil {
			return err
		}
		m.complete(ev.Response)
	case "response.failed":
		return respFailed(ev.Response)
	case "response.incomplete":
		return respIncomplete(ev.Response)
	case "response.output_item.added":
		m.itemAdded(ev)
	case "response.output_item.done":
		m.itemDone(ev)
	default:
		m.content(ev)
	}
	return nil
}

// content merges the events that belong to one item: argument and text
// deltas and their done events. Unknown event types are ignored.
func (m *respMerger) content(ev *respEvent) {
	kind, ok := kindOfEvent(ev.Type)
	if !ok {
		return
	}
	if ev.Part != nil && ev.Part.Type == "reasoning_text" {
		kind = kindReasoning // reasoning content parts (DeepSeek, LM Studio, OpenRouter)
	}
	it := m.items.find(ev.ItemID, "", kind, ev.OutputIndex)
	switch ev.Type {
	case "response.function_call_arguments.delta":
		text, isString := m.text(ev.Delta)
		if isString {
			it.args = append(m.items.window(it), text...)
		} else if text != nil {
			it.args = append(m.items.window(it)[:0], text...)
		}
		it.argsFrom = "deltas"
	case "response.function_call_arguments.done":
		if ev.Name != "" && it.name == "" {
			it.name = ev.Name
		}
		if text, _ := m.text(ev.Arguments); len(text) > 0 {
			m.confirmArgs(it, text, ev.Type)
		}
	case "response.custom_tool_call_input.delta":
		text, _ := m.text(ev.Delta)
		it.args = append(it.args, text...)
		it.argsFrom = "deltas"
	case "response.custom_tool_call_input.done":
		if text, isString := m.text(ev.Input); isString {
			m.confirmArgs(it, text, ev.Type)
		}
	case "response.output_text.delta", "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
		text, _ := m.text(ev.Delta)
		p := it.part(partIndex(ev))
		p.text = append(p.text, text...)
		p.from = "deltas"
	case "response.output_text.done", "response.reasoning_text.done", "response.reasoning_summary_text.done":
		if ev.Text != nil {
			m.confirmText(it, partIndex(ev), *ev.Text, ev.Type)
		}
	case "response.content_part.done":
		if ev.Part != nil && ev.Part.Text != nil {
			m.confirmText(it, ev.ContentIndex, *ev.Part.Text, ev.Type)
		}
	}
}

// delta merges a delta event the fast path read: as content does, without
// decoding the event into a respEvent.
func (m *respMerger) delta(d *respDelta) {
	var index, content *int
	if d.hasOutput {
		index = &d.outputIndex
	}
	if d.hasContent {
		content = &d.contentIndex
	}
	switch d.typ {
	case "response.function_call_arguments.delta":
		it := m.items.findBytes(d.itemID, kindFunctionCall, index)
		it.args = jsonscan.AppendUnquoted(m.items.window(it), d.delta)
		it.argsFrom = "deltas"
	case "response.output_text.delta":
		p := m.items.findBytes(d.itemID, kindMessage, index).part(content)
		p.text = jsonscan.AppendUnquoted(p.text, d.delta)
		p.from = "deltas"
	case "response.function_call_arguments.done":
		it := m.items.findBytes(d.itemID, kindFunctionCall, index)
		if len(d.delta) > 2 {
			m.scratch = jsonscan.AppendUnquoted(m.scratch[:0], d.delta)
			m.confirmArgs(it, m.scratch, d.typ)
		}
	case "response.output_text.done":
		it := m.items.findBytes(d.itemID, kindMessage, index)
		if len(d.delta) > 2 {
			m.scratch = jsonscan.AppendUnquoted(m.scratch[:0], d.delta)
			m.confirmText(it, content, string(m.scratch), d.typ)
		}
	case "response.output_item.added", "response.output_item.done":
		f := &d.item
		m.item = respItemJSON{Type: itemType(f.typ), Name: m.name(f.name), Arguments: f.args}
		m.ev = respEvent{Type: d.typ, OutputIndex: index, Item: &m.item}
		if d.typ == "response.output_item.added" {
			m.item.ID, m.item.CallID = m.items.ids.string(f.id), m.items.ids.string(f.callID)
			m.itemAdded(&m.ev)
		} else {
			m.item.ID, m.item.CallID = m.items.idString(f.id), m.items.callIDString(f.callID)
			m.itemDone(&m.ev)
		}
	}
}

// partIndex is the part a text event is about: summary_index for a
// reasoning summary, content_index otherwise.
func partIndex(ev *respEvent) *int {
	if ev.SummaryIndex != nil && ev.ContentIndex == nil {
		return ev.SummaryIndex
	}
	return ev.ContentIndex
}

// itemAdded opens the item an output_item.added announces (or joins the one
// its content events opened before it).
func (m *respMerger) itemAdded(ev *respEvent) {
	if ev.Item == nil {
		return
	}
	j := ev.Item
	kind := kindOf(j.Type)
	it := m.items.lookup(j.ID, j.CallID, kind, ev.OutputIndex, true)
	if it == nil {
		it = m.items.add(kind, ev.OutputIndex)
	}
	it.announced = true
	m.items.name(it, j.ID, j.CallID)
	if j.Name != "" && it.name == "" {
		it.name = j.Name
	}
	if text := m.callText(j); len(text) > 0 && m.items.fallbacks[it] == nil {
		if m.items.fallbacks == nil {
			m.items.fallbacks = map[*respItem][]byte{}
		}
		m.items.fallbacks[it] = bytes.Clone(text)
	}
}

// itemDone merges an output_item.done: the whole item confirms or supplies
// the arguments and text, and closes the item.
func (m *respMerger) itemDone(ev *respEvent) {
	if ev.Item == nil {
		return
	}
	j := ev.Item
	it := m.items.find(j.ID, j.CallID, kindOf(j.Type), ev.OutputIndex)
	if j.Name != "" && it.name == "" {
		it.name = j.Name
	}
	if text := m.callText(j); len(text) > 0 {
		m.confirmArgs(it, text, ev.Type)
	}
	for i, p := range append(j.Content, j.Summary...) {
		if p.Text != nil {
			m.confirmText(it, &i, *p.Text, ev.Type)
		}
	}
	it.open = false
}

// confirmArgs sets the arguments a done event carries: they win over the
// deltas (and over an earlier done event), and a difference is a warning.
func (m *respMerger) confirmArgs(it *respItem, text []byte, source string) {
	if it.argsFrom != "" && !bytes.Equal(it.args, text) {
		m.warn("call %s: the arguments in %s differ from the %s; the done text is used", it.label(), source, from(it.argsFrom))
	}
	it.args = append(m.items.window(it)[:0], text...)
	it.argsFrom = source
	m.items.sized(len(text))
}

// confirmText does for a content part's text what confirmArgs does for
// arguments. An empty done text never wipes streamed text.
func (m *respMerger) confirmText(it *respItem, index *int, text, source string) {
	if text == "" {
		return
	}
	p := it.part(index)
	if p.from != "" && string(p.text) != text && it.kind == kindMessage {
		m.warn("message %s: the text in %s differs from the %s; the done text is used", it.label(), source, from(p.from))
	}
	p.text = append(p.text[:0], text...)
	p.from = source
}

// from names where text came from, for a warning.
func from(source string) string {
	if source == "deltas" {
		return "streamed deltas"
	}
	return "text of " + source
}

// label names an item in a warning: its call id, item id, or output_index.
func (it *respItem) label() string {
	switch {
	case it.callID != "":
		return it.callID
	case it.id != "":
		return it.id
	case it.hasIndex:
		return fmt.Sprintf("at output_index %d", it.index)
	}
	return "without an id"
}

func (m *respMerger) warn(format string, args ...any) {
	m.warnings = append(m.warnings, fmt.Sprintf(format, args...))
}

// sequence notes events that arrive out of sequence_number order. They are
// merged in arrival order all the same, as the SDKs do.
func (m *respMerger) sequence(n int64, ok bool) {
	if !ok {
		return
	}
	if m.hasSeq && n <= m.seq {
		if m.seqBack == 0 {
			m.seqFirst = fmt.Sprintf("%d after %d", n, m.seq)
		}
		m.seqBack++
	}
	m.seq, m.hasSeq = n, true
}

// sameResponse notes the response's id from a lifecycle event. Another id
// on a later event is not a second response: GitHub Copilot rotates the
// response id on every lifecycle event as it rotates item ids (vercel/ai's
// github-copilot-id-rotation recording); only a second response.created is.
func (m *respMerger) sameResponse(r *respResponse) error {
	if r != nil && r.ID != "" && m.responseID == "" {
		m.responseID = r.ID
	}
	return nil
}

func (m *respMerger) secondResponse(r *respResponse) error {
	second := "(no id)"
	if r != nil && r.ID != "" {
		second = r.ID
	}
	first := m.responseID
	if first == "" {
		first = "(no id)"
	}
	return fmt.Errorf("%w: %s after %s (event %d)", ErrSecondResponse, second, first, m.events)
}

// complete merges response.completed: its usage, and its output, which only
// fills gaps. Streamed items stand: an empty or shorter output never wipes
// them, and its order never reorders them.
func (m *respMerger) complete(r *respResponse) {
	m.completed = true
	if r == nil {
		return
	}
	if r.Usage != nil {
		m.usage = &agent.Usage{PromptTokens: r.Usage.InputTokens, CompletionTokens: r.Usage.OutputTokens, TotalTokens: r.Usage.TotalTokens}
	}
	matched := map[*respItem]bool{}
	var rest []*respItemJSON
	for i := range r.Output {
		j := &r.Output[i]
		it := m.items.lookup(j.ID, j.CallID, kindOf(j.Type), nil, false)
		if it == nil || matched[it] {
			rest = append(rest, j)
			continue
		}
		matched[it] = true
		m.fillGaps(it, j)
	}
	// Items whose ids rotated while streaming are matched by kind, in order.
	streamed := m.items.sorted()
	for _, j := range rest {
		kind := kindOf(j.Type)
		var it *respItem
		for _, s := range streamed {
			if !matched[s] && s.kind == kind && (s.callID == "" || j.CallID == "" || s.callID == j.CallID) {
				it = s
				break
			}
		}
		if it == nil {
			it = m.items.add(kind, nil)
		}
		matched[it] = true
		m.items.name(it, j.ID, j.CallID)
		m.fillGaps(it, j)
	}
}

// fillGaps supplies what an item lacks from a whole item of
// response.completed, never replacing what was streamed.
func (m *respMerger) fillGaps(it *respItem, j *respItemJSON) {
	m.items.name(it, j.ID, j.CallID)
	if j.Name != "" && it.name == "" {
		it.name = j.Name
	}
	if text := m.callText(j); len(text) > 0 && it.argsFrom == "" {
		it.args = append(m.items.window(it)[:0], text...)
		it.argsFrom = "response.completed"
	}
	for i, p := range append(j.Content, j.Summary...) {
		if p.Text == nil || *p.Text == "" {
			continue
		}
		if part := it.part(&i); part.from == "" {
			part.text = append(part.text[:0], *p.Text...)
			part.from = "response.completed"
		}
	}
}

// turn returns the merged turn so far.
func (m *respMerger) turn() *agent.Turn {
	items := m.items.sorted()
	var text []byte
	var thinking []agent.Thinking
	for _, it := range items {
		switch it.kind {
		case kindMessage:
			text = append(text, it.text()...)
		case kindReasoning:
			if r := it.text(); len(r) > 0 {
				thinking = append(thinking, agent.Thinking{Type: agent.ThinkingReasoning, Text: string(r)})
			}
		}
	}
	t := &agent.Turn{Text: string(text), ToolCalls: m.items.calls(items), Usage: m.usage, Thinking: thinking}
	t.ToolTurn = len(t.ToolCalls) > 0
	if m.completed {
		t.FinishReason = "stop"
		if t.ToolTurn {
			t.FinishReason = "tool_calls"
		}
	}
	t.Warnings = append(t.Warnings, m.warnings...)
	if m.seqBack > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s out of sequence_number order (first: %s); merged in arrival order", events(m.seqBack), m.seqFirst))
	}
	if m.afterEnd > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%s after response.completed ignored", events(m.afterEnd)))
	}
	return t
}

func events(n int) string {
	if n == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", n)
}

// respEventError turns an error event into a StreamError: {"code","message"}
// at the top, or an "error" member.
func respEventError(ev *respEvent, data []byte) error {
	if jsonscan.Present(ev.Error) {
		return agent.MemberError(ev.Error, data)
	}
	return agent.BodyError(agent.ErrorBody{Message: ev.Message, Code: ev.Code}, data)
}

// respFailed turns response.failed into a StreamError from response.error.
func respFailed(r *respResponse) error {
	e := &agent.StreamError{Message: "the response failed", Type: "response.failed"}
	if r != nil && jsonscan.Present(r.Error) {
		var body agent.ErrorBody
		if json.Unmarshal(r.Error, &body) == nil {
			if msg := jsonscan.Text(body.Message); msg != "" {
				e.Message = msg
			}
			e.Code = jsonscan.Text(body.Code)
		} else {
			e.Message = jsonscan.Text(r.Error)
		}
	}
	return e
}

// respIncomplete turns response.incomplete into a StreamError naming the reason.
func respIncomplete(r *respResponse) error {
	e := &agent.StreamError{Message: "the response is incomplete", Type: "response.incomplete"}
	if r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
		e.Message += " (" + r.IncompleteDetails.Reason + ")"
	}
	return e
}
