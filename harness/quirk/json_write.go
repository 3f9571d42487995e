package quirk

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// MarshalJSON writes the members in order, compact, as encoding/json would
// (HTML characters escaped): the bytes json.Marshal(o) gives, which the
// transforms call it for, without json.Marshal's second pass over them.
// The values a parse gives are written by appendJSON; when it meets
// anything else it hands the whole object to marshalJSON, which asks
// encoding/json for every member.
func (o *jsonObject) MarshalJSON() ([]byte, error) {
	return o.marshalInto(nil)
}

// marshalLike is MarshalJSON for an object read from data and edited: its
// bytes are written into room for data's length and a little more (an edit
// seldom adds much), in one buffer instead of one that grows.
func (o *jsonObject) marshalLike(data string) ([]byte, error) {
	return o.marshalInto(make([]byte, 0, len(data)+16))
}

// marshalInto is MarshalJSON appending to buf.
func (o *jsonObject) marshalInto(buf []byte) ([]byte, error) {
	if b, ok := appendJSON(buf, o); ok {
		return b, nil
	}
	return o.marshalJSON()
}

// marshalJSON writes each key and value with json.Marshal: the reference
// appendJSON is tested against, and the writer of values it leaves.
func (o *jsonObject) marshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := json.Marshal(m.val)
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// appendJSON appends v as json.Marshal writes it, false when v holds a
// value it leaves to encoding/json: a type other than those a parse gives
// or a number literal it would refuse.
func appendJSON(b []byte, v any) ([]byte, bool) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if t {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case string:
		return appendString(b, t), true
	case json.Number:
		if !validNumber(string(t)) {
			return b, false
		}
		return append(b, t...), true
	case []any:
		if t == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSON(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case *jsonObject:
		if t == nil {
			return append(b, "null"...), true
		}
		b = append(b, '{')
		for i, m := range t.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, m.key), ':')
			var ok bool
			if b, ok = appendJSON(b, m.val); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendString quotes s as json.Marshal does: invalid UTF-8 becomes
// \ufffd; a quote, a backslash and the control characters are escaped
// (\b, \f, \n, \r, \t or \u00XX), and so are <, >, &, U+2028 and U+2029
// (json.Marshal's HTML escaping), with lowercase hex digits.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				b = append(append(b, s[done:i]...), `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				b = append(append(b, s[done:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
			default:
				i += n
				continue
			}
			i += n
			done = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			i++
			continue
		}
		b = append(b, s[done:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		done = i
	}
	b = append(b, s[done:]...)
	return append(b, '"')
}

// validNumber reports whether s is a JSON number literal (what
// json.Marshal takes of a json.Number; it writes "" as 0, which is left
// to it).
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if i+1 >= len(s) || !isDigit(s[i+1]) {
			return false
		}
		i = digits(s, i+1)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		i = digits(s, i)
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
