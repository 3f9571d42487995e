package jsonscan

import "unicode/utf8"

// A Template is one event remembered as fixed bytes with holes in it: the
// values that change from one event of a run to the next (a piece's index,
// its text), while everything around them (the envelope, the keys, their
// order, the values that repeat) stays the same byte for byte. A stream's
// events mostly come in such runs: every chunk of a tool call's arguments
// is the chunk before it with another index and another piece of text.
//
// Scanning is a function of the bytes: an event whose bytes outside the
// holes are the remembered event's, and whose holes hold values of the same
// kind that end where the remembered ones did, takes the same path through
// a format's scanner as the remembered event did (the same keys in the same
// order, the same values everywhere else, the same verdict) and differs only
// in the holes' values. Match checks exactly that and returns those values,
// so a format whose remembered event its scanner read can apply the same
// result with the new values without scanning again.
//
// A hole begins at its value's first byte. An integer hole's value is read
// by Integer, which stops before the byte the remembered one stopped before
// (a byte that cannot continue a number); a string hole's value ends at its
// closing quote. The zero Template matches nothing.
type Template struct {
	buf   []byte // the remembered event
	holes [MaxHoles]Hole
	n     int // holes in use, in the order they appear
}

// MaxHoles is the most holes a Template has.
const MaxHoles = 6

// HoleKind is what a hole holds, read as the format's scanner reads it.
type HoleKind uint8

const (
	// HoleInt is an integer as Integer reads it.
	HoleInt HoleKind = iota + 1
	// HoleString is any string literal Str reads.
	HoleString
	// HolePlain is a string literal without escapes or bytes outside
	// ASCII, as PlainString reads it.
	HolePlain
	// HoleUTF8 is a string literal whose bytes are valid UTF-8.
	HoleUTF8
)

// Hole is where a value was in the remembered event: data[Start:End].
type Hole struct {
	Kind       HoleKind
	Start, End int
}

// Value is a hole's value in a matched event: N for an integer, the string
// literal (quotes included, pointing into the event) for a string.
type Value struct {
	N int
	B []byte
}

// Remember keeps data, with the holes given in the order they appear
// (Start ascending, not overlapping, at most MaxHoles), as the template.
// It reports false, and forgets the template, for holes it cannot keep.
func (t *Template) Remember(data []byte, holes ...Hole) bool {
	t.n = 0
	if len(holes) == 0 || len(holes) > MaxHoles {
		return false
	}
	at := 0
	for _, h := range holes {
		if h.Kind < HoleInt || h.Kind > HoleUTF8 || h.Start < at || h.End <= h.Start || h.End > len(data) {
			return false
		}
		at = h.End
	}
	t.buf = append(t.buf[:0], data...)
	t.n = copy(t.holes[:], holes)
	return true
}

// Forget drops the template: nothing matches until the next Remember.
func (t *Template) Forget() { t.n = 0 }

// Match reports whether data is the remembered event with other values in
// its holes, and puts them in vals, in the holes' order.
func (t *Template) Match(data []byte, vals *[MaxHoles]Value) bool {
	if t.n == 0 {
		return false
	}
	s := Scanner{B: data}
	from := 0 // where the fixed bytes to compare next begin in buf
	for i, h := range t.holes[:t.n] {
		fixed := t.buf[from:h.Start]
		if len(data)-s.I < len(fixed) || string(data[s.I:s.I+len(fixed)]) != string(fixed) {
			return false
		}
		s.I += len(fixed)
		if h.Kind == HoleInt {
			n, ok := s.Integer()
			if !ok {
				return false
			}
			vals[i].N = n
		} else {
			if s.Peek() != '"' {
				return false
			}
			lit, plain, ok := s.Str()
			if !ok || (!plain && (h.Kind == HolePlain || (h.Kind == HoleUTF8 && !utf8.Valid(lit)))) {
				return false
			}
			vals[i].B = lit
		}
		from = h.End
	}
	return string(data[s.I:]) == string(t.buf[from:])
}

// Holes is the number of holes of the template, 0 when it holds none.
func (t *Template) Holes() int { return t.n }
