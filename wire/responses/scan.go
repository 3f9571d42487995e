package responses

import (
	"bytes"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// respDelta is what the fast path reads from a delta event (the events a
// Responses stream is mostly made of) or from the done event of arguments
// or text.
type respDelta struct {
	typ          string
	seq          int
	hasSeq       bool
	itemID       []byte // points into the event's data
	outputIndex  int
	hasOutput    bool
	contentIndex int
	hasContent   bool
	delta        []byte // the quoted string literal of delta, arguments or text, validated
	key          string // which of the three it was, or "item"
	item         respFastItem
}

// respFastItem is an output item the fast path read: its strings point into
// the event's data; args is the quoted literal of its arguments, nil when
// absent.
type respFastItem struct {
	id, typ, callID, name, args []byte
}

// respEventFields are the members the fast path reads, then those only
// encoding/json decodes (an event that has one goes to it, which may refuse
// its type); any other member is skipped.
var respEventFields = []string{"type", "sequence_number", "item_id", "output_index", "content_index", "delta",
	"arguments", "text", "name", "item", "part", "response", "code", "message", "error"}

// scanRespDelta is the fast path for response.function_call_arguments.delta
// and .done, response.output_text.delta and .done: one pass over data, no
// reflection, no allocation. It reports false for any other event type, for
// a done event with a member only encoding/json reads (a name), and for anything it
// does not understand the way encoding/json would (a duplicate key, a key in
// another case, a null, escapes in an id, a delta that is not a string,
// invalid UTF-8); the caller then decodes the event with encoding/json.
func scanRespDelta(data []byte, d *respDelta) bool {
	return scanRespDeltaTemplate(data, d, nil)
}

// scanRespDeltaTemplate is scanRespDelta that also remembers a delta or
// done event it read in t, when t is not nil.
func scanRespDeltaTemplate(data []byte, d *respDelta, t *respTemplates) bool {
	*d = respDelta{}
	s := scanner{Scanner: jsonscan.Scanner{B: data}}
	member := func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "type":
			bit = 1 << 0
			var lit []byte
			lit, ok = s.PlainString()
			switch string(lit) {
			case "response.function_call_arguments.delta":
				d.typ = "response.function_call_arguments.delta"
			case "response.output_text.delta":
				d.typ = "response.output_text.delta"
			case "response.function_call_arguments.done":
				d.typ = "response.function_call_arguments.done"
			case "response.output_text.done":
				d.typ = "response.output_text.done"
			case "response.output_item.added":
				d.typ = "response.output_item.added"
			case "response.output_item.done":
				d.typ = "response.output_item.done"
			default:
				return 0, false
			}
		case "sequence_number":
			bit = 1 << 1
			d.seq, ok = s.Integer()
			d.hasSeq = true
		case "item_id":
			bit = 1 << 2
			d.itemID, ok = s.PlainString()
		case "output_index":
			bit = 1 << 3
			d.outputIndex, ok = s.Integer()
			d.hasOutput = true
		case "content_index":
			bit = 1 << 4
			d.contentIndex, ok = s.Integer()
			d.hasContent = true
		case "delta", "arguments", "text":
			bit = 1 << 5
			if s.Peek() != '"' {
				return 0, false
			}
			var plain bool
			d.delta, plain, ok = s.Str()
			ok = ok && (plain || utf8.Valid(d.delta))
			d.key = textKey(key)
		case "item":
			bit = 1 << 6
			ok = s.fastItem(&d.item)
			d.key = "item"
		default:
			ok = s.Other(key, respEventFields)
		}
		return bit, ok
	}
	if t != nil {
		s.noted = true
		read := member
		member = func(key []byte) (uint32, bool) {
			start := s.I
			bit, ok := read(key)
			if ok {
				s.hole(bit, start)
			}
			return bit, ok
		}
	}
	var ok bool
	if h := respHead(data); h != nil {
		// The type, which reading it would give.
		s.I, d.typ = len(h.head), h.typ
		_, ok = s.MembersAfter(false, 1<<0, member)
	} else {
		if s.WS() != '{' {
			return false
		}
		s.I++
		_, ok = s.Members(member)
	}
	if !ok {
		return false
	}
	s.WS()
	if s.I != len(s.B) || d.key != keyOf(d.typ) || (d.delta == nil && d.key != "item") {
		return false
	}
	if t != nil {
		t.remember(data, d, &s)
	}
	return true
}

// A knownRespHead is how a compact delta event of one type begins, through
// its type's value.
type knownRespHead struct {
	head []byte
	typ  string
}

var knownRespHeads = []knownRespHead{
	{[]byte(`{"type":"response.function_call_arguments.delta"`), "response.function_call_arguments.delta"},
	{[]byte(`{"type":"response.output_text.delta"`), "response.output_text.delta"},
}

// respHead returns the known head data begins with, or nil.
func respHead(data []byte) *knownRespHead {
	for i := range knownRespHeads {
		if bytes.HasPrefix(data, knownRespHeads[i].head) {
			return &knownRespHeads[i]
		}
	}
	return nil
}

// respItemFields are the item members the fast path reads, then those only
// encoding/json reads (an item with content, a summary or a custom call's
// input goes to it).
var respItemFields = []string{"id", "type", "call_id", "name", "arguments", "content", "summary", "input"}

// fastItem scans an output item without content or summary: a function
// call, or a built-in tool's item.
func (s *scanner) fastItem(it *respFastItem) bool {
	if s.Peek() != '{' {
		return false
	}
	s.I++
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		start := s.I
		defer func() {
			if ok {
				s.itemHole(bit, start)
			}
		}()
		switch string(key) {
		case "id":
			bit = 1 << 0
			it.id, ok = s.PlainString()
		case "type":
			bit = 1 << 1
			it.typ, ok = s.PlainString()
		case "call_id":
			bit = 1 << 2
			it.callID, ok = s.PlainString()
		case "name":
			bit = 1 << 3
			it.name, ok = s.PlainString()
		case "arguments":
			bit = 1 << 4
			if s.Peek() != '"' {
				return 0, false
			}
			var plain bool
			it.args, plain, ok = s.Str()
			ok = ok && (plain || utf8.Valid(it.args))
		default:
			ok = s.Other(key, respItemFields)
		}
		return bit, ok
	})
	return ok
}

// keyOf is the member that carries the text of each event the fast path
// reads.
func keyOf(typ string) string {
	switch typ {
	case "response.function_call_arguments.delta", "response.output_text.delta":
		return "delta"
	case "response.function_call_arguments.done":
		return "arguments"
	case "response.output_text.done":
		return "text"
	case "response.output_item.added", "response.output_item.done":
		return "item"
	}
	return ""
}

// textKey interns the keys of the text members.
func textKey(key []byte) string {
	switch string(key) {
	case "delta":
		return "delta"
	case "arguments":
		return "arguments"
	}
	return "text"
}
