package agent

import "encoding/binary"

// scanner is a cursor over one chunk's JSON, the lexical half of the fast
// path (chunkscan.go has the chunk's shape). It validates what it reads the
// way encoding/json does; every method reports false on anything malformed
// or not understood, and the caller then decodes the chunk with encoding/json,
// which gives the same result or the error text.
type scanner struct {
	b []byte
	i int
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
func (s *scanner) ws() byte {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return s.b[s.i] // compact JSON: nothing to skip
	}
	return s.wsSlow()
}

func (s *scanner) wsSlow() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// peek returns the byte at the cursor, 0 at the end.
func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// str scans the string literal at the cursor and returns it, quotes included.
// plain reports that it holds neither escapes nor bytes outside ASCII.
func (s *scanner) str() (lit []byte, plain, ok bool) {
	b, start := s.b, s.i
	i := start + 1
	plain = true
	for {
		for i+8 <= len(b) && special8(binary.LittleEndian.Uint64(b[i:])) == 0 {
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
			s.i = i + 1
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

// special8 is not zero when one of the 8 bytes in x may be one that
// strPlain does not mark (a false alarm only sends the caller to its byte
// loop): below 0x20, '"', '\\' or not ASCII.
func special8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return ((x - ones*0x20) | (quote - ones) | (backslash - ones) | x) & highs
}

// number scans the number at the cursor. integer reports a literal with no
// fraction or exponent and at most 18 digits, which n holds.
func (s *scanner) number() (n int, integer, ok bool) {
	b, i := s.b, s.i
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
	s.i = i
	if neg {
		n = -n
	}
	return n, integer, true
}

// word consumes the literal w (true, false or null) at the cursor.
func (s *scanner) word(w string) bool {
	if len(s.b)-s.i < len(w) || string(s.b[s.i:s.i+len(w)]) != w {
		return false
	}
	s.i += len(w)
	return true
}

// null consumes a null at the cursor.
func (s *scanner) null() bool { return s.word("null") }

// skip validates and passes over the value at the cursor.
func (s *scanner) skip(depth int) bool {
	switch s.ws() {
	case '"':
		_, _, ok := s.str()
		return ok
	case '{':
		if depth >= maxSkipDepth {
			return false
		}
		s.i++
		for first := true; ; first = false {
			_, done, ok := s.member(first, false)
			if !ok || done {
				return ok
			}
			if !s.skip(depth + 1) {
				return false
			}
		}
	case '[':
		if depth >= maxSkipDepth {
			return false
		}
		s.i++
		for first := true; ; first = false {
			done, ok := s.element(first)
			if !ok || done {
				return ok
			}
			if !s.skip(depth + 1) {
				return false
			}
		}
	case 't':
		return s.word("true")
	case 'f':
		return s.word("false")
	case 'n':
		return s.null()
	}
	_, _, ok := s.number()
	return ok
}

// raw passes over the value at the cursor and returns its bytes.
func (s *scanner) raw() ([]byte, bool) {
	start := s.i
	if !s.skip(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// member moves to the next member of an object whose '{' was consumed and
// leaves the cursor on its value; done reports the closing '}'. When strict,
// a key with escapes or non-ASCII bytes is not understood (ok is false): it
// might spell a field's name.
func (s *scanner) member(first, strict bool) (key []byte, done, ok bool) {
	c := s.ws()
	if !first {
		switch c {
		case ',':
			s.i++
			c = s.ws()
		case '}':
			s.i++
			return nil, true, true
		default:
			return nil, false, false
		}
	} else if c == '}' {
		s.i++
		return nil, true, true
	}
	if c != '"' {
		return nil, false, false
	}
	lit, plain, ok := s.str()
	if !ok || (!plain && strict) || s.ws() != ':' {
		return nil, false, false
	}
	s.i++
	s.ws()
	return lit[1 : len(lit)-1], false, true
}

// members reads the members of an object whose '{' is consumed, through
// its '}': member gets each key with the cursor on the value, reads the
// value and returns the bit that names the key (0 for a key that may come
// again, as a skipped one may). seen has the bits of the keys read. ok is
// false on anything malformed, on a member that fails and on a key seen
// twice (encoding/json keeps the last; the caller falls back to it).
func (s *scanner) members(member func(key []byte) (bit uint32, ok bool)) (seen uint32, ok bool) {
	for first := true; ; first = false {
		key, done, ok := s.member(first, true)
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
func (s *scanner) other(key []byte, fields []string) bool {
	for _, f := range fields {
		if len(f) == len(key) && foldedEqual(key, f) {
			return false
		}
	}
	return s.skip(0)
}

// foldedEqual reports whether the ASCII key equals the lower-case name f
// when letters are compared without case.
func foldedEqual(key []byte, f string) bool {
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
func (s *scanner) element(first bool) (done, ok bool) {
	c := s.ws()
	if c == ']' && first {
		s.i++
		return true, true
	}
	if !first {
		switch c {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			return true, true
		default:
			return false, false
		}
	}
	return false, true
}
