package chat

import (
	"bytes"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// scanChunk is the fast path of chunk decoding: one pass over data that fills
// c exactly as encoding/json would, without reflection and without allocating
// for anything but usage and the strings it must keep (ids, names, and
// values it does not know by heart). Strings the merger only appends (content,
// arguments) stay as their quoted bytes pointing into data, unescaped later
// straight into the turn's buffers. It reports false on anything malformed or
// not understood (a duplicate key, a key in another case, a wrong type, an
// escaped id...); c is then left half-filled and the caller resets it and
// decodes with encoding/json, so results and error texts stay those of
// encoding/json. c must be freshly reset. h, when not nil, remembers how a
// chunk began (see chunkHead) and is compared with the next one's start.
func scanChunk(data []byte, c *chunk, h *chunkHead) bool {
	return scanChunkTemplate(data, c, h, nil)
}

// scanChunkTemplate is scanChunk that also remembers a chunk it read in t,
// when t is not nil and the chunk has a shape chunkTemplate keeps.
func scanChunkTemplate(data []byte, c *chunk, h *chunkHead, t *chunkTemplate) bool {
	s := scanner{Scanner: jsonscan.Scanner{B: data}}
	resumed, objectSeen, other := false, false, false
	member := func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "object":
			bit, ok = 1<<0, s.strField(&c.Object)
			objectSeen = true
		case "choices":
			if h != nil && !resumed && !other {
				h.remember(data[:s.I], c.Object, objectSeen)
			}
			bit, ok = 1<<1, s.choices(c)
		case "usage":
			bit, ok = 1<<2, s.usage(c)
		case "error":
			bit = 1 << 3
			c.Error, ok = s.Raw()
		case "message":
			bit = 1 << 4
			c.Message, ok = s.Raw()
		case "type":
			bit = 1 << 5
			c.Type, ok = s.Raw()
		case "code":
			bit = 1 << 6
			c.Code, ok = s.Raw()
		default:
			ok = s.Other(key, chunkFields)
		}
		other = other || bit > 1<<1
		return bit, ok
	}
	var ok bool
	if h != nil && len(h.head) > 0 && bytes.HasPrefix(data, h.head) {
		resumed = true
		s.I, c.Object = len(h.head), h.object
		bit, choicesOK := member(choicesKey)
		if !choicesOK {
			return false
		}
		_, ok = s.MembersAfter(false, h.seen|bit, member)
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
	if s.I != len(s.B) {
		return false
	}
	if t != nil {
		t.remember(data, c, &s)
	}
	return true
}

// The members each object decodes; any other key is skipped.
var (
	chunkFields    = []string{"object", "choices", "usage", "error", "message", "type", "code"}
	choiceFields   = []string{"index", "delta", "finish_reason"}
	deltaFields    = []string{"content", "refusal", "reasoning_content", "reasoning", "reasoning_details", "tool_calls"}
	pieceFields    = []string{"index", "id", "function", "extra_content"}
	functionFields = []string{"name", "arguments"}
	usageFields    = []string{"prompt_tokens", "completion_tokens", "total_tokens"}
)

// open consumes the '{' of an object at the cursor. A null is consumed too
// and reports isNull: encoding/json leaves a struct alone for null.
func (s *scanner) open() (isNull, ok bool) {
	switch s.Peek() {
	case '{':
		s.I++
		return false, true
	case 'n':
		return true, s.Null()
	}
	return false, false
}

// openArray consumes the '[' of an array at the cursor, or a null (isNull).
func (s *scanner) openArray() (isNull, ok bool) {
	switch s.Peek() {
	case '[':
		s.I++
		return false, true
	case 'n':
		return true, s.Null()
	}
	return false, false
}

// strField decodes a string or null (which leaves dst alone) into dst.
func (s *scanner) strField(dst *string) bool {
	switch s.Peek() {
	case 'n':
		return s.Null()
	case '"':
		lit, plain, ok := s.Str()
		if !ok || !plain {
			return false // escapes and invalid UTF-8 are encoding/json's to decode
		}
		*dst = internString(lit[1 : len(lit)-1])
		return true
	}
	return false
}

// internString returns the strings every chunk repeats without allocating.
func internString(b []byte) string {
	switch string(b) {
	case "":
		return ""
	case "chat.completion.chunk":
		return "chat.completion.chunk"
	case "stop":
		return "stop"
	case "tool_calls":
		return "tool_calls"
	case "length":
		return "length"
	case "error":
		return "error"
	}
	return string(b)
}

// intField decodes an integer or null (which leaves dst alone) into dst.
func (s *scanner) intField(dst *int) bool {
	if s.Peek() == 'n' {
		return s.Null()
	}
	n, integer, ok := s.Number()
	if !ok || !integer {
		return false
	}
	*dst = n
	return true
}

// grow extends *xs by one element, reusing the slot past its length (which
// reset zeroed) as encoding/json does, and returns it.
func grow[T any](xs *[]T) *T {
	n := len(*xs)
	if n < cap(*xs) {
		*xs = (*xs)[:n+1]
	} else {
		var zero T
		*xs = append(*xs, zero)
	}
	return &(*xs)[n]
}

func (s *scanner) choices(c *chunk) bool {
	isNull, ok := s.openArray()
	if isNull || !ok {
		if isNull {
			c.Choices = nil
		}
		return ok
	}
	for first := true; ; first = false {
		done, ok := s.Element(first)
		if !ok || done {
			return ok
		}
		if !s.choice(grow(&c.Choices)) {
			return false
		}
	}
}

func (s *scanner) choice(ch *choice) bool {
	if isNull, ok := s.open(); isNull || !ok {
		return ok
	}
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "index":
			bit, ok = 1<<2, s.choiceIndex(&ch.Index)
		case "delta":
			bit, ok = 1<<0, s.delta(&ch.Delta)
		case "finish_reason":
			bit, ok = 1<<1, s.strField(&ch.FinishReason)
		default:
			ok = s.Other(key, choiceFields)
		}
		return bit, ok
	})
	return ok
}

func (s *scanner) delta(d *delta) bool {
	if isNull, ok := s.open(); isNull || !ok {
		return ok
	}
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "content":
			bit, ok = 1<<0, s.text(&d.Content)
		case "tool_calls":
			bit, ok = 1<<1, s.pieces(&d.ToolCalls)
		case "refusal":
			bit, ok = 1<<2, s.rawValue(&d.Refusal)
		case "reasoning_content":
			bit, ok = 1<<3, s.rawValue(&d.ReasoningContent)
		case "reasoning":
			bit, ok = 1<<4, s.rawValue(&d.Reasoning)
		case "reasoning_details":
			bit, ok = 1<<5, s.rawValue(&d.ReasoningDetails)
		default:
			ok = s.Other(key, deltaFields)
		}
		return bit, ok
	})
	return ok
}

// text keeps a string's quoted bytes, an array's or object's bytes (content
// parts), or nil for null.
func (s *scanner) text(t *rawText) bool {
	switch s.Peek() {
	case 'n':
		*t = nil
		return s.Null()
	case '"':
		start := s.I
		lit, _, ok := s.Str()
		*t = lit
		s.textAt = jsonscan.Hole{Kind: jsonscan.HoleString, Start: start, End: s.I}
		return ok
	case '[', '{':
		b, ok := s.Raw()
		*t = b
		return ok
	}
	return false // encoding/json reports it through rawText
}

// rawValue keeps any value's bytes, or nil for null.
func (s *scanner) rawValue(v *rawValue) bool {
	if s.Peek() == 'n' {
		*v = nil
		return s.Null()
	}
	b, ok := s.Raw()
	*v = b
	return ok
}

// choiceIndex takes an integer or null; any other value is left to
// encoding/json (choiceIndex.UnmarshalJSON).
func (s *scanner) choiceIndex(x *choiceIndex) bool {
	if s.Peek() == 'n' {
		*x = choiceIndex{}
		return s.Null()
	}
	n, integer, ok := s.Number()
	*x = choiceIndex{N: n, Set: true}
	return ok && integer
}

func (s *scanner) pieces(ps *[]toolPiece) bool {
	isNull, ok := s.openArray()
	if isNull || !ok {
		if isNull {
			*ps = nil
		}
		return ok
	}
	for first := true; ; first = false {
		done, ok := s.Element(first)
		if !ok || done {
			return ok
		}
		if !s.piece(grow(ps)) {
			return false
		}
	}
}

func (s *scanner) piece(p *toolPiece) bool {
	if isNull, ok := s.open(); isNull || !ok {
		return ok
	}
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "index":
			bit, ok = 1<<0, s.index(&p.Index)
		case "id":
			bit, ok = 1<<1, s.strField(&p.ID)
		case "function":
			bit, ok = 1<<2, s.function(&p.Function)
		case "extra_content":
			bit, ok = 1<<3, s.rawValue(&p.Extra)
		default:
			ok = s.Other(key, pieceFields)
		}
		return bit, ok
	})
	return ok
}

// index takes an integer or null; optIndex.UnmarshalJSON decides the rest.
func (s *scanner) index(x *optIndex) bool {
	if s.Peek() == 'n' {
		*x = optIndex{}
		return s.Null()
	}
	start := s.I
	n, integer, ok := s.Number()
	s.indexAt = jsonscan.Hole{Kind: jsonscan.HoleInt, Start: start, End: s.I}
	*x = optIndex{N: n, Set: true}
	return ok && integer
}

func (s *scanner) function(f *pieceFunction) bool {
	if isNull, ok := s.open(); isNull || !ok {
		return ok
	}
	_, ok := s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "name":
			bit, ok = 1<<0, s.strField(&f.Name)
		case "arguments":
			bit = 1 << 1
			if s.Peek() == 'n' {
				f.Arguments, ok = nil, s.Null()
			} else {
				start := s.I
				f.Arguments, ok = s.Raw()
				s.textAt = jsonscan.Hole{Kind: jsonscan.HoleString, Start: start, End: s.I}
			}
		default:
			ok = s.Other(key, functionFields)
		}
		return bit, ok
	})
	return ok
}

func (s *scanner) usage(c *chunk) bool {
	isNull, ok := s.open()
	if isNull || !ok {
		if isNull {
			c.Usage.Value = nil
		}
		return ok
	}
	u := new(agent.Usage)
	c.Usage.Value = u
	_, ok = s.Members(func(key []byte) (bit uint32, ok bool) {
		switch string(key) {
		case "prompt_tokens":
			bit, ok = 1<<0, s.intField(&u.PromptTokens)
		case "completion_tokens":
			bit, ok = 1<<1, s.intField(&u.CompletionTokens)
		case "total_tokens":
			bit, ok = 1<<2, s.intField(&u.TotalTokens)
		default:
			ok = s.Other(key, usageFields)
		}
		return bit, ok
	})
	return ok
}
