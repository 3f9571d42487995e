package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// Scanner is a cursor over one event's JSON, the lexical half of a format's
// fast path (each wire package's scan file has its events' shape). It validates what it reads the
// way encoding/json does; every method reports false on anything malformed
// or not understood, and the caller then decodes the chunk with encoding/json,
// which gives the same result or the error text.
type Scanner struct {
	B []byte // the JSON text
	I int    // the cursor: the index of the next byte to read
}

// maxSkipDepth bounds the nesting of a skipped value. Deeper values go to
// encoding/json, which has its own limit.
const maxSkipDepth = 200

// strPlain marks the bytes a string may hold that need no second look: ASCII
// from 0x20 up, other than '"' and '\\'.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// ws skips JSON whitespace and returns the byte at the cursor, 0 at the end.
func (s *Scanner) WS() byte {
	if s.I < len(s.B) && s.B[s.I] > ' ' {
		return s.B[s.I] // compact JSON: nothing to skip
	}
	return s.wsSlow()
}

func (s *Scanner) wsSlow() byte {
	for s.I < len(s.B) {
		switch c := s.B[s.I]; c {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return c
		}
	}
	return 0
}

// peek returns the byte at the cursor, 0 at the end.
func (s *Scanner) Peek() byte {
	if s.I < len(s.B) {
		return s.B[s.I]
	}
	return 0
}

// str scans the string literal at the cursor and returns it, quotes included.
// plain reports that it holds neither escapes nor bytes outside ASCII.
func (s *Scanner) Str() (lit []byte, plain, ok bool) {
	b, start := s.B, s.I
	i := start + 1
	plain = true
	for {
		for i+8 <= len(b) {
			if m := special8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3 // the first byte to look at
				break
			}
			i += 8
		}
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		if i >= len(b) {
			return nil, false, false
		}
		switch c := b[i]; {
		case c == '"':
			s.I = i + 1
			return b[start : i+1], plain, true
		case c == '\\':
			plain = false
			if i+1 >= len(b) {
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if hex4(b[i+2:]) < 0 {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		default: // not ASCII; encoding/json does not check UTF-8 here either
			plain = false
			i++
		}
	}
}

// special8 is not zero when one of the 8 bytes in x (little-endian) is one
// that strPlain does not mark: below 0x20, '"', '\\' or not ASCII. Its lowest
// set bit is in the first such byte (a subtraction borrows only out of a
// byte it marks, so the bytes before that one are exact; bytes after it
// may be marked falsely).
func special8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return ((x - ones*0x20) | (quote - ones) | (backslash - ones) | x) & highs
}

// number scans the number at the cursor. integer reports a literal with no
// fraction or exponent and at most 18 digits, which n holds.
func (s *Scanner) Number() (n int, integer, ok bool) {
	b, i := s.B, s.I
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	digits := i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			n = n*10 + int(b[i]-'0')
			i++
		}
	default:
		return 0, false, false
	}
	integer = i-digits <= 18
	if i < len(b) && b[i] == '.' {
		integer = false
		if i++; i >= len(b) || b[i] < '0' || b[i] > '9' {
			return 0, false, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return 0, false, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	s.I = i
	if neg {
		n = -n
	}
	return n, integer, true
}

// word consumes the literal w (true, false or null) at the cursor.
func (s *Scanner) Word(w string) bool {
	if len(s.B)-s.I < len(w) || string(s.B[s.I:s.I+len(w)]) != w {
		return false
	}
	s.I += len(w)
	return true
}

// null consumes a null at the cursor.
func (s *Scanner) Null() bool { return s.Word("null") }

// skip validates and passes over the value at the cursor.
func (s *Scanner) Skip(depth int) bool {
	switch s.WS() {
	case '"':
		_, _, ok := s.Str()
		return ok
	case '{':
		if depth >= maxSkipDepth {
			return false
		}
		s.I++
		for first := true; ; first = false {
			_, done, ok := s.Member(first, false)
			if !ok || done {
				return ok
			}
			if !s.Skip(depth + 1) {
				return false
			}
		}
	case '[':
		if depth >= maxSkipDepth {
			return false
		}
		s.I++
		for first := true; ; first = false {
			done, ok := s.Element(first)
			if !ok || done {
				return ok
			}
			if !s.Skip(depth + 1) {
				return false
			}
		}
	case 't':
		return s.Word("true")
	case 'f':
		return s.Word("false")
	case 'n':
		return s.Null()
	}
	_, _, ok := s.Number()
	return ok
}

// raw passes over the value at the cursor and returns its bytes.
func (s *Scanner) Raw() ([]byte, bool) {
	start := s.I
	if !s.Skip(0) {
		return nil, false
	}
	return s.B[start:s.I], true
}

// member moves to the next member of an object whose '{' was consumed and
// leaves the cursor on its value; done reports the closing '}'. When strict,
// a key with escapes or non-ASCII bytes is not understood (ok is false): it
// might spell a field's name.
func (s *Scanner) Member(first, strict bool) (key []byte, done, ok bool) {
	c := s.WS()
	if !first {
		switch c {
		case ',':
			s.I++
			c = s.WS()
		case '}':
			s.I++
			return nil, true, true
		default:
			return nil, false, false
		}
	} else if c == '}' {
		s.I++
		return nil, true, true
	}
	if c != '"' {
		return nil, false, false
	}
	lit, plain, ok := s.Str()
	if !ok || (!plain && strict) || s.WS() != ':' {
		return nil, false, false
	}
	s.I++
	s.WS()
	return lit[1 : len(lit)-1], false, true
}

// members reads the members of an object whose '{' is consumed, through
// its '}': member gets each key with the cursor on the value, reads the
// value and returns the bit that names the key (0 for a key that may come
// again, as a skipped one may). seen has the bits of the keys read. ok is
// false on anything malformed, on a member that fails and on a key seen
// twice (encoding/json keeps the last; the caller falls back to it).
func (s *Scanner) Members(member func(key []byte) (bit uint32, ok bool)) (seen uint32, ok bool) {
	return s.MembersAfter(true, 0, member)
}

// MembersAfter is Members for an object some of whose members were read
// already (a known head of the object, compared as bytes): first says none
// was, seen holds their bits, and the cursor is after the last one's value.
func (s *Scanner) MembersAfter(first bool, seen uint32, member func(key []byte) (bit uint32, ok bool)) (uint32, bool) {
	for ; ; first = false {
		key, done, ok := s.Member(first, true)
		if !ok || done {
			return seen, ok
		}
		bit, ok := member(key)
		if !ok || seen&bit != 0 {
			return seen, false
		}
		seen |= bit
	}
}

// other skips the value of a member whose key matched none of fields exactly.
// A key that matches one of them in another case is not understood: it is
// encoding/json's to decode, which folds case.
func (s *Scanner) Other(key []byte, fields []string) bool {
	for _, f := range fields {
		if len(f) == len(key) && FoldedEqual(key, f) {
			return false
		}
	}
	return s.Skip(0)
}

// FoldedEqual reports whether the ASCII key equals the lower-case name f
// when letters are compared without case.
func FoldedEqual(key []byte, f string) bool {
	for i := range len(key) {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f[i] {
			return false
		}
	}
	return true
}

// element moves to the next element of an array whose '[' was consumed and
// leaves the cursor on it; done reports the closing ']'.
func (s *Scanner) Element(first bool) (done, ok bool) {
	c := s.WS()
	if c == ']' && first {
		s.I++
		return true, true
	}
	if !first {
		switch c {
		case ',':
			s.I++
			s.WS()
		case ']':
			s.I++
			return true, true
		default:
			return false, false
		}
	}
	return false, true
}

// PlainString scans a string with no escapes and only ASCII and returns its
// bytes without the quotes.
func (s *Scanner) PlainString() ([]byte, bool) {
	if s.Peek() != '"' {
		return nil, false
	}
	lit, plain, ok := s.Str()
	if !ok || !plain {
		return nil, false
	}
	return lit[1 : len(lit)-1], true
}

// Integer scans an integer that fits encoding/json's int.
func (s *Scanner) Integer() (int, bool) {
	n, integer, ok := s.Number()
	return n, ok && integer
}
