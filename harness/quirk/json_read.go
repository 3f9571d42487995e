package quirk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseJSONObject decodes data, which must hold exactly one JSON object.
// The one pass of orderedReader reads it and checks the grammar
// encoding/json's decoder takes as it goes; anything it does not take goes
// through the decoder, whose error is the one returned. It takes a string
// (an event's data is one) so that keys, numbers and strings without
// escapes are slices of data, not copies.
func parseJSONObject(data string) (*jsonObject, error) {
	r := orderedReader{data: data}
	v := r.value(0)
	if r.space(); r.bad || r.pos != len(data) {
		return decodeJSONObject([]byte(data))
	}
	obj, ok := v.(*jsonObject)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %T", v)
	}
	return obj, nil
}

// decodeJSONObject is parseJSONObject through encoding/json's decoder,
// token by token: the reference readOrdered is tested against, and the
// errors of invalid data.
func decodeJSONObject(data []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	obj, ok := v.(*jsonObject)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %T", v)
	}
	return obj, nil
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := &jsonObject{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string) // object keys are always strings
				val, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				obj.set(key, val)
			}
			_, err := dec.Token() // '}'
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		return nil, fmt.Errorf("unexpected delimiter %q", t)
	default:
		return t, nil
	}
}

// orderedReader reads JSON into the values decodeOrdered makes of it
// (objects in order, json.Number, string, bool, nil) in one pass. It
// checks the grammar as it reads (what json.Valid checks) and sets bad at
// the first byte it does not take, or past maxReadDepth levels of nesting;
// its values are then not to be used.
type orderedReader struct {
	data string
	pos  int
	bad  bool
}

// maxReadDepth bounds the nesting the reader takes; deeper data goes to
// the decoder, which has its own bound.
const maxReadDepth = 1000

func (r *orderedReader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// next is the byte at pos after white space, 0 at the end.
func (r *orderedReader) next() byte {
	r.space()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// fail marks the data as not taken; the value returned goes unused.
func (r *orderedReader) fail() any {
	r.bad = true
	return nil
}

func (r *orderedReader) value(depth int) any {
	if depth > maxReadDepth {
		return r.fail()
	}
	switch r.next() {
	case '{':
		r.pos++
		obj := &jsonObject{}
		if r.next() == '}' {
			r.pos++
			return obj
		}
		for {
			if r.next() != '"' {
				return r.fail()
			}
			key := r.key()
			if r.bad || r.next() != ':' {
				return r.fail()
			}
			r.pos++
			val := r.value(depth + 1)
			if r.bad {
				return nil
			}
			obj.set(key, val)
			switch r.next() {
			case ',':
				r.pos++
			case '}':
				r.pos++
				return obj
			default:
				return r.fail()
			}
		}
	case '[':
		r.pos++
		arr := []any{}
		if r.next() == ']' {
			r.pos++
			return arr
		}
		for {
			val := r.value(depth + 1)
			if r.bad {
				return nil
			}
			arr = append(arr, val)
			switch r.next() {
			case ',':
				r.pos++
			case ']':
				r.pos++
				return arr
			default:
				return r.fail()
			}
		}
	case '"':
		return r.str()
	case 't':
		return r.word("true", true)
	case 'f':
		return r.word("false", false)
	case 'n':
		return r.word("null", nil)
	}
	return r.number()
}

// word reads the literal w at pos, which stands for v.
func (r *orderedReader) word(w string, v any) any {
	if len(r.data)-r.pos < len(w) || r.data[r.pos:r.pos+len(w)] != w {
		return r.fail()
	}
	r.pos += len(w)
	return v
}

// number reads a number literal at pos: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *orderedReader) number() any {
	start := r.pos
	if r.at('-') {
		r.pos++
	}
	switch {
	case r.at('0'):
		r.pos++
	case r.digits() == 0:
		return r.fail()
	}
	if r.at('.') {
		r.pos++
		if r.digits() == 0 {
			return r.fail()
		}
	}
	if r.at('e') || r.at('E') {
		r.pos++
		if r.at('+') || r.at('-') {
			r.pos++
		}
		if r.digits() == 0 {
			return r.fail()
		}
	}
	if r.pos-start == 1 {
		return digitNumbers[r.data[start]-'0']
	}
	return json.Number(r.data[start:r.pos])
}

// digitNumbers are the numbers of one digit, made values once: most of a
// stream's numbers are indexes, and making each a value allocates.
var digitNumbers = func() (d [10]any) {
	for i := range d {
		d[i] = json.Number(strconv.Itoa(i))
	}
	return d
}()

func (r *orderedReader) at(c byte) bool { return r.pos < len(r.data) && r.data[r.pos] == c }

// digits passes over the digits at pos and says how many there were.
func (r *orderedReader) digits() int {
	start := r.pos
	for r.pos < len(r.data) && '0' <= r.data[r.pos] && r.data[r.pos] <= '9' {
		r.pos++
	}
	return r.pos - start
}

// str reads a string at pos. One without escapes or bytes past ASCII is
// its bytes; others are unquoted by unquote, as the decoder would. A
// control byte, an unknown escape or a string without its end is bad.
func (r *orderedReader) str() string {
	start := r.pos
	plain := true
	r.pos++ // the opening quote
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; {
		case c == '"':
			r.pos++
			if plain {
				return r.data[start+1 : r.pos-1]
			}
			return unquote(r.data[start:r.pos])
		case c == '\\':
			plain = false
			if !r.escape() {
				r.bad = true
				return ""
			}
		case c < 0x20:
			r.bad = true
			return ""
		case c >= utf8.RuneSelf:
			plain = false
			r.pos++
		default:
			r.pos++
		}
	}
	r.bad = true
	return ""
}

// escape passes over a valid escape at pos (its backslash), false on
// any other.
func (r *orderedReader) escape() bool {
	if r.pos+1 >= len(r.data) {
		return false
	}
	switch r.data[r.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		r.pos += 2
		return true
	case 'u':
		if len(r.data)-r.pos < 6 {
			return false
		}
		for _, h := range []byte(r.data[r.pos+2 : r.pos+6]) {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		r.pos += 6
		return true
	}
	return false
}

// unquote is the string a valid JSON string literal (quotes included)
// stands for: escapes read, \uXXXX of a rune written in UTF-8. A surrogate
// escape or invalid UTF-8 (which encoding/json pairs or replaces with
// U+FFFD) is left to json.Unmarshal.
func unquote(lit string) string {
	out := make([]byte, 0, len(lit))
	for i := 1; i < len(lit)-1; {
		switch c := lit[i]; {
		case c == '\\':
			e := lit[i+1]
			i += 2
			switch e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				v, _ := strconv.ParseUint(lit[i:i+4], 16, 32)
				if utf16.IsSurrogate(rune(v)) {
					return unmarshalString(lit)
				}
				out = utf8.AppendRune(out, rune(v))
				i += 4
			default: // " \ /
				out = append(out, e)
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(lit[i:])
			if r == utf8.RuneError && n == 1 {
				return unmarshalString(lit)
			}
			out = append(out, lit[i:i+n]...)
			i += n
		default:
			out = append(out, c)
			i++
		}
	}
	return string(out)
}

func unmarshalString(lit string) string {
	var s string
	_ = json.Unmarshal([]byte(lit), &s) // a valid string literal
	return s
}
