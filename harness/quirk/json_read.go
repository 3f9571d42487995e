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
// Valid JSON (json.Valid, the same grammar encoding/json's decoder takes)
// is read by one pass of readOrdered; anything else goes through the
// decoder, whose error is the one returned.
func parseJSONObject(data []byte) (*jsonObject, error) {
	if !json.Valid(data) {
		return decodeJSONObject(data)
	}
	r := orderedReader{data: data}
	v := r.value()
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

// orderedReader reads data already known to be valid JSON into the values
// decodeOrdered makes of it (objects in order, json.Number, string, bool,
// nil), without checking the grammar again.
type orderedReader struct {
	data []byte
	pos  int
}

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

func (r *orderedReader) value() any {
	r.space()
	switch c := r.data[r.pos]; c {
	case '{':
		r.pos++
		obj := &jsonObject{}
		for {
			r.space()
			if r.data[r.pos] == '}' {
				r.pos++
				return obj
			}
			if r.data[r.pos] == ',' {
				r.pos++
				r.space()
			}
			key := r.str()
			r.space()
			r.pos++ // ':'
			obj.set(key, r.value())
		}
	case '[':
		r.pos++
		arr := []any{}
		for {
			r.space()
			switch r.data[r.pos] {
			case ']':
				r.pos++
				return arr
			case ',':
				r.pos++
			}
			arr = append(arr, r.value())
		}
	case '"':
		return r.str()
	case 't':
		r.pos += len("true")
		return true
	case 'f':
		r.pos += len("false")
		return false
	case 'n':
		r.pos += len("null")
		return nil
	}
	start := r.pos
	for r.pos < len(r.data) && numberByte(r.data[r.pos]) {
		r.pos++
	}
	return json.Number(r.data[start:r.pos])
}

// str reads a string at pos. One without escapes or bytes past ASCII is
// its bytes; others are unquoted by unquote, as the decoder would.
func (r *orderedReader) str() string {
	start := r.pos
	plain := true
	r.pos++ // the opening quote
	for {
		switch c := r.data[r.pos]; {
		case c == '"':
			r.pos++
			if plain {
				return string(r.data[start+1 : r.pos-1])
			}
			return unquote(r.data[start:r.pos])
		case c == '\\':
			plain = false
			r.pos += 2
		case c >= utf8.RuneSelf:
			plain = false
			r.pos++
		default:
			r.pos++
		}
	}
}

// unquote is the string a valid JSON string literal (quotes included)
// stands for: escapes read, \uXXXX of a rune written in UTF-8. A surrogate
// escape or invalid UTF-8 (which encoding/json pairs or replaces with
// U+FFFD) is left to json.Unmarshal.
func unquote(lit []byte) string {
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
				v, _ := strconv.ParseUint(string(lit[i:i+4]), 16, 32)
				if utf16.IsSurrogate(rune(v)) {
					return unmarshalString(lit)
				}
				out = utf8.AppendRune(out, rune(v))
				i += 4
			default: // " \ /
				out = append(out, e)
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(lit[i:])
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

func unmarshalString(lit []byte) string {
	var s string
	_ = json.Unmarshal(lit, &s) // a valid string literal
	return s
}

// numberByte reports whether c may be part of a number literal.
func numberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
