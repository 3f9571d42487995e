package quirk

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// The streaming forms of each format's quirks: how its Apply writes an
// event it leaves alone (pass), and the first event its call transforms
// may edit (holdFrom).

// chatPass writes an event as parseQuirkStream's edits (chat's, and Responses' without a sequence_number)
// write one they leave alone: as parsed, LF-framed; a chunk that is not
// valid JSON is the error Apply gives.
func chatPass(ev *passEvent) ([]byte, error) {
	if ev.HasData && strings.HasPrefix(strings.TrimSpace(ev.Data), "{") {
		if _, err := ev.object(); err != nil {
			return nil, err
		}
	}
	return sse.Format([]sse.Event{ev.Event}, "\n"), nil
}

// respPass writes an event as respEdit does: renumber sets every
// sequence_number, so an event that has one is re-encoded (with its own
// number: inOrder holds from the first out of order); others as chatPass.
func respPass(ev *passEvent) ([]byte, error) {
	if o := eventObject(ev); o != nil {
		if _, ok := o.get("sequence_number"); ok {
			b, _ := o.marshalLike(ev.Data)
			out := ev.Event
			out.Data = string(b)
			return sse.Format([]sse.Event{out}, "\n"), nil
		}
	}
	return chatPass(ev)
}

// msgPass writes an event as msgEdit does: its data re-encoded, LF-framed.
func msgPass(ev *passEvent) ([]byte, error) {
	out := ev.Event
	if ev.HasData {
		o, err := ev.object()
		if err != nil {
			return nil, err
		}
		b, _ := o.marshalLike(ev.Data) // ordered objects of plain values always marshal
		out.Data = string(b)
	}
	return sse.Format([]sse.Event{out}, "\n"), nil
}

// gemPass writes an event as gemEdit does: its data alone, re-encoded,
// CRLF-framed; an event without data is left out.
func gemPass(ev *passEvent) ([]byte, error) {
	if !ev.HasData {
		return nil, nil
	}
	o, err := ev.object()
	if err != nil {
		return nil, err
	}
	b, _ := o.marshalLike(ev.Data)
	return sse.Format([]sse.Event{{Data: string(b), HasData: true}}, "\r\n"), nil
}

// passEvent is one event a streaming form reads: the SSE event, and its
// data parsed as a JSON object once, when a test or a pass first asks.
type passEvent struct {
	sse.Event
	read bool
	obj  *jsonObject
	err  error
}

// object is the event's data parsed (parseJSONObject).
func (ev *passEvent) object() (*jsonObject, error) {
	if !ev.read {
		ev.read = true
		ev.obj, ev.err = parseJSONObject(ev.Data)
	}
	return ev.obj, ev.err
}

// eventObject is an event's data parsed, nil when it is not an object (an
// event the transforms then hold, to meet the error Apply gives).
func eventObject(ev *passEvent) *jsonObject {
	if !ev.HasData {
		return nil
	}
	o, _ := ev.object()
	return o
}

// chatCallEvent names a chunk with tool-call pieces or a finish_reason
// "tool_calls" (finish_stop's edit), or one that is not valid JSON.
func chatCallEvent(ev *passEvent) bool {
	if !ev.HasData || !strings.HasPrefix(strings.TrimSpace(ev.Data), "{") {
		return false
	}
	o := eventObject(ev)
	if o == nil {
		return true
	}
	for _, c := range o.array("choices") {
		choice, _ := c.(*jsonObject)
		if choice == nil {
			continue
		}
		if _, ok := choice.object("delta").get("tool_calls"); ok || choice.str("finish_reason") == "tool_calls" {
			return true
		}
	}
	return false
}

// msgToolUse names the start of a tool_use block (or an event that is not
// valid JSON).
func msgToolUse(ev *passEvent) bool {
	o := eventObject(ev)
	if o == nil {
		return ev.HasData
	}
	return o.str("type") == "content_block_start" && o.object("content_block").str("type") == "tool_use"
}

// eventTypes names the events whose data's type is one of types (or one
// whose data is not a JSON object).
func eventTypes(types ...string) func(*passEvent) bool {
	return func(ev *passEvent) bool {
		o := eventObject(ev)
		if o == nil {
			return ev.HasData
		}
		for _, t := range types {
			if o.str("type") == t {
				return true
			}
		}
		return false
	}
}

// respCallEvent names a Responses event about a function call: its item
// added or done, its argument deltas or done (or one that is not valid JSON).
func respCallEvent(ev *passEvent) bool {
	if !ev.HasData || !strings.HasPrefix(strings.TrimSpace(ev.Data), "{") {
		return false
	}
	o := eventObject(ev)
	if o == nil {
		return true
	}
	return strings.HasPrefix(o.str("type"), "response.function_call_arguments.") ||
		(o.object("item") != nil && o.object("item").str("type") == "function_call")
}

// gemCallEvent names a Gemini event with a functionCall part (or one that
// is not valid JSON).
func gemCallEvent(ev *passEvent) bool {
	if !ev.HasData {
		return false
	}
	o := eventObject(ev)
	if o == nil {
		return true
	}
	for _, p := range parts(o) {
		if po, ok := p.(*jsonObject); ok && po.object("functionCall") != nil {
			return true
		}
	}
	return false
}

// msgWithIndex names an event whose data has an index (a block's start,
// delta or stop), or one that is not valid JSON.
func msgWithIndex(ev *passEvent) bool {
	o := eventObject(ev)
	if o == nil {
		return ev.HasData
	}
	_, ok := o.get("index")
	return ok
}

// inOrder adds to a Responses test the events respEdit renumbers: from the
// first whose sequence_number is not the count of those before it.
func inOrder(test func(*passEvent) bool) func() func(*passEvent) bool {
	return func() func(*passEvent) bool {
		n := 0
		return func(ev *passEvent) bool {
			if test(ev) {
				return true
			}
			o := eventObject(ev)
			if o == nil {
				return false
			}
			seq, ok := o.get("sequence_number")
			if !ok {
				return false
			}
			n++
			return fmt.Sprint(seq) != fmt.Sprint(n-1)
		}
	}
}

// stateless makes a test of one event a holdFrom.
func stateless(test func(*passEvent) bool) func() func(*passEvent) bool {
	return func() func(*passEvent) bool { return test }
}

var (
	// eachEvent: Apply edits each event on its own.
	eachEvent = streamForm{local: true}
	// chatCalls: the edit starts at the first tool-call piece.
	chatCalls = streamForm{pass: chatPass, holdFrom: stateless(chatCallEvent), from: "the first tool-call piece"}
	// msgCalls: the edit starts at the first tool_use block.
	msgCalls = streamForm{pass: msgPass, holdFrom: stateless(msgToolUse), from: "the first tool_use block"}
	// msgBlocks: the edit starts at the first event with a block index.
	msgBlocks = streamForm{pass: msgPass, holdFrom: stateless(msgWithIndex), from: "the first content block"}
	// respCalls: the edit starts at the first function-call event.
	respCalls = streamForm{pass: respPass, holdFrom: inOrder(respCallEvent), from: "the first function-call event"}
	// gemCalls: the edit starts at the first event with a functionCall.
	gemCalls = streamForm{pass: gemPass, holdFrom: stateless(gemCallEvent), from: "the first functionCall event"}
)

// msgFrom: the edit starts at the first event of one of those types.
func msgFrom(types ...string) streamForm {
	return streamForm{pass: msgPass, holdFrom: stateless(eventTypes(types...)), from: "the first " + strings.Join(types, " or ")}
}

// respFrom: the edit starts at the first event of one of those types.
func respFrom(types ...string) streamForm {
	return streamForm{pass: respPass, holdFrom: inOrder(eventTypes(types...)), from: "the first " + strings.Join(types, " or ")}
}

// gemAfterFirst: the edit keeps the first data event and replaces the rest
// (gemini_error_midstream), so it holds from the second.
var gemAfterFirst = streamForm{pass: gemPass, from: "the second event", holdFrom: func() func(*passEvent) bool {
	seen := 0
	return func(ev *passEvent) bool {
		if ev.HasData {
			seen++
		}
		return seen > 1
	}
}}

// respCallsOrCompleted: the edit starts at the first function-call event
// or response.completed (responses_shared_output_index edits both).
var respCallsOrCompleted = streamForm{pass: respPass, from: "the first function-call event or response.completed",
	holdFrom: inOrder(func(ev *passEvent) bool { return respCallEvent(ev) || eventTypes("response.completed")(ev) })}

// gemLast: the edit touches only the last event (gemini_finish_alone,
// gemini_empty_candidate, gemini_cut_before_finish), which alone is held.
var gemLast = streamForm{pass: gemPass, last: true}
