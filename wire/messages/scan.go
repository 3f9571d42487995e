package messages

import (
	"bytes"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// Delta types of content_block_delta that the merger reads.
const (
	msgDeltaText      = "text_delta"
	msgDeltaInputJSON = "input_json_delta"
	msgDeltaThinking  = "thinking_delta"
	msgDeltaSignature = "signature_delta"
)

// The members the fast path knows, for the case-folding check of
// scanner.other (encoding/json matches keys without case).
var (
	msgEventFields = []string{"type", "message", "index", "content_block", "delta", "usage", "error"}
	msgStartFields = []string{"type", "id", "name", "input", "text", "thinking", "signature", "data"}
	msgDeltaFields = []string{"type", "text", "partial_json", "thinking", "signature", "stop_reason"}
)

// blockDelta is one content_block_delta: value is the text of the member
// the delta type carries (text, partial_json, thinking or signature); from
// the fast path it is that member's quoted literal (quoted), pointing into
// the event's data.
type blockDelta struct {
	index  int
	typ    string
	value  []byte
	quoted bool
	start  fastStart // content_block_start
}

// fastStart is a content_block_start the fast path read: a text block with
// empty text, or a tool_use block with plain id and name and input {}.
type fastStart struct {
	typ      string // "text" or "tool_use"
	id, name []byte
}

// scanEvent is the fast path for the events that make most of a stream:
// content_block_delta (filled into d), content_block_stop, ping and
// message_stop; one pass, no reflection, no allocation. It returns the event
// type, or "" for any other event and for anything it does not understand (a
// duplicate or case-folded key, a null, an unknown delta type, invalid
// UTF-8); the caller then decodes the event with encoding/json, which gives
// the same result or the error text.
func scanEvent(data []byte, d *blockDelta) string {
	return scanEventTemplate(data, d, nil)
}

// scanEventTemplate is scanEvent that also remembers a content_block_delta
// or content_block_stop it read in its template of ts, when ts is not nil.
func scanEventTemplate(data []byte, d *blockDelta, ts *eventTemplates) string {
	s := scanner{Scanner: jsonscan.Scanner{B: data}}
	typ, ok := s.event(d)
	if !ok {
		return ""
	}
	if ts != nil {
		ts.remember(typ, data, d, &s)
	}
	return typ
}

// deltaEventHead is how a compact content_block_delta event begins, up to
// its index's value.
var deltaEventHead, indexKey = []byte(`{"type":"content_block_delta","index":`), []byte("index")

func (s *scanner) event(d *blockDelta) (string, bool) {
	var typ string
	data := s.B
	member := func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "type":
			bit = 1 << 0
			var lit []byte
			lit, ok = s.PlainString()
			typ = fastEventType(lit)
			ok = ok && typ != ""
		case "index":
			bit = 1 << 1
			var integer bool
			start := s.I
			d.index, integer, ok = s.Number()
			s.indexAt = jsonscan.Hole{Kind: jsonscan.HoleInt, Start: start, End: s.I}
			ok = ok && integer
		case "delta":
			bit, ok = 1<<2, s.deltaObject(d)
		case "content_block":
			bit, ok = 1<<3, s.startObject(&d.start)
		default:
			ok = s.Other(key, msgEventFields)
		}
		return bit, ok
	}
	var seen uint32
	var ok bool
	if bytes.HasPrefix(data, deltaEventHead) {
		// The head of nearly every event: its type and the index's key
		// are what reading them would give, as bytes.
		s.I, typ = len(deltaEventHead), "content_block_delta"
		s.WS()
		bit, indexOK := member(indexKey)
		if !indexOK {
			return "", false
		}
		seen, ok = s.MembersAfter(false, 1|bit, member)
	} else {
		if s.WS() != '{' {
			return "", false
		}
		s.I++
		seen, ok = s.Members(member)
	}
	if !ok {
		return "", false
	}
	s.WS()
	if s.I != len(s.B) || seen&1 == 0 {
		return "", false
	}
	switch typ {
	case "content_block_delta":
		return typ, seen == 7
	case "content_block_start":
		return typ, seen == 1|2|8
	}
	return typ, seen&(4|8) == 0 // other members are the shapes encoding/json reads
}

// startObject reads {"type":"text","text":""} or
// {"type":"tool_use","id":"..","name":"..","input":{}} in any order.
func (s *scanner) startObject(st *fastStart) bool {
	if s.Peek() != '{' {
		return false
	}
	s.I++
	*st = fastStart{}
	var text bool
	seen, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		var lit []byte
		switch string(key) {
		case "type":
			bit = 1 << 0
			lit, ok = s.PlainString()
			switch string(lit) {
			case "text":
				st.typ = "text"
			case "tool_use":
				st.typ = "tool_use"
			default:
				return 0, false
			}
		case "id":
			bit = 1 << 1
			start := s.I
			st.id, ok = s.PlainString()
			s.idAt = jsonscan.Hole{Kind: jsonscan.HolePlain, Start: start, End: s.I}
		case "name":
			bit = 1 << 2
			start := s.I
			st.name, ok = s.PlainString()
			s.nameAt = jsonscan.Hole{Kind: jsonscan.HolePlain, Start: start, End: s.I}
		case "text":
			bit = 1 << 3
			lit, ok = s.PlainString()
			text = ok && len(lit) == 0
		case "input":
			bit = 1 << 4
			ok = s.Word("{}") // an input that is not {} goes to encoding/json
		default:
			ok = s.Other(key, msgStartFields)
		}
		return bit, ok
	})
	if !ok {
		return false
	}
	switch st.typ {
	case "text":
		return seen == 1|8 && text
	case "tool_use":
		return seen == 1|2|4|16
	}
	return false
}

// fastEventType interns the event types scanEvent handles, "" for others.
func fastEventType(lit []byte) string {
	switch string(lit) {
	case "content_block_delta":
		return "content_block_delta"
	case "content_block_start":
		return "content_block_start"
	case "content_block_stop":
		return "content_block_stop"
	case "ping":
		return "ping"
	case "message_stop":
		return "message_stop"
	}
	return ""
}

// deltaObject reads {"type":..,"<member>":".."} in any order.
func (s *scanner) deltaObject(d *blockDelta) bool {
	if s.Peek() != '{' {
		return false
	}
	var typ, value, valueKey []byte
	first := true
	if h := deltaHead(s.B[s.I:]); h != nil {
		// The type and the value's key are what reading them would give.
		s.I += len(h.head)
		typ, valueKey = h.typ, h.key
		s.WS()
		if value = s.deltaValue(); value == nil {
			return false
		}
		first = false
	} else {
		s.I++
	}
	for ; ; first = false {
		key, done, ok := s.Member(first, true)
		if !ok {
			return false
		}
		if done {
			break
		}
		switch string(key) {
		case "type":
			if typ != nil {
				return false
			}
			if typ, ok = s.PlainString(); !ok {
				return false
			}
		case "text", "partial_json", "thinking", "signature":
			if value != nil {
				return false
			}
			if value = s.deltaValue(); value == nil {
				return false
			}
			valueKey = key
		default:
			if !s.Other(key, msgDeltaFields) {
				return false
			}
		}
	}
	switch string(typ) {
	case msgDeltaText:
		d.typ = msgDeltaText
	case msgDeltaInputJSON:
		d.typ = msgDeltaInputJSON
	case msgDeltaThinking:
		d.typ = msgDeltaThinking
	case msgDeltaSignature:
		d.typ = msgDeltaSignature
	default:
		return false
	}
	d.value, d.quoted = value, true
	return value != nil && string(valueKey) == deltaMember(d.typ)
}

// deltaValue reads the string literal at the cursor, valid UTF-8; nil
// when it is not one.
func (s *scanner) deltaValue() []byte {
	if s.Peek() != '"' {
		return nil
	}
	start := s.I
	lit, plain, ok := s.Str()
	if !ok || (!plain && !utf8.Valid(lit)) {
		return nil
	}
	s.valueAt = jsonscan.Hole{Kind: jsonscan.HoleUTF8, Start: start, End: s.I}
	return lit
}

// A knownDeltaHead is how a compact delta object of one type begins, up to
// its value: {"type":"<typ>","<key>":
type knownDeltaHead struct {
	head, typ, key []byte
}

var knownDeltaHeads = func() []knownDeltaHead {
	var heads []knownDeltaHead
	for _, typ := range []string{msgDeltaInputJSON, msgDeltaText, msgDeltaThinking} {
		key := deltaMember(typ)
		heads = append(heads, knownDeltaHead{[]byte(`{"type":"` + typ + `","` + key + `":`), []byte(typ), []byte(key)})
	}
	return heads
}()

// deltaHead returns the known head b begins with, or nil.
func deltaHead(b []byte) *knownDeltaHead {
	for i := range knownDeltaHeads {
		if bytes.HasPrefix(b, knownDeltaHeads[i].head) {
			return &knownDeltaHeads[i]
		}
	}
	return nil
}

// deltaMember is the member a delta type carries its text in.
func deltaMember(typ string) string {
	switch typ {
	case msgDeltaText:
		return "text"
	case msgDeltaInputJSON:
		return "partial_json"
	case msgDeltaThinking:
		return "thinking"
	}
	return "signature"
}
