package quirk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jsonObject is a JSON object that keeps its members in the order they were
// read, so a chunk that a quirk transform rewrites keeps the field order the
// gateway sent (id, object, created, model, choices, ...) and a rewritten
// stream reads like the clean one line for line. Member values are
// *jsonObject, []any, json.Number, string, bool or nil.
type jsonObject struct {
	keys []string
	vals map[string]any
}

// parseJSONObject decodes data, which must hold exactly one JSON object.
func parseJSONObject(data []byte) (*jsonObject, error) {
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
			obj := &jsonObject{vals: map[string]any{}}
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

// The readers below accept a nil object, which has no members.

// get returns the member's value and whether it is present.
func (o *jsonObject) get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// object returns the member as an object, or nil.
func (o *jsonObject) object(key string) *jsonObject {
	if o == nil {
		return nil
	}
	v, _ := o.vals[key].(*jsonObject)
	return v
}

// array returns the member as an array, or nil.
func (o *jsonObject) array(key string) []any {
	if o == nil {
		return nil
	}
	v, _ := o.vals[key].([]any)
	return v
}

// str returns the member as a string; "" when absent or not a string.
func (o *jsonObject) str(key string) string {
	if o == nil {
		return ""
	}
	v, _ := o.vals[key].(string)
	return v
}

// set replaces the member's value in place, or appends the member.
func (o *jsonObject) set(key string, val any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = val
}

// setAfter sets the member; a new member goes right after the member
// named after (or first when after is absent), as a gateway would place it.
func (o *jsonObject) setAfter(after, key string, val any) {
	if _, ok := o.vals[key]; ok {
		o.vals[key] = val
		return
	}
	pos := 0
	for i, k := range o.keys {
		if k == after {
			pos = i + 1
		}
	}
	o.keys = append(o.keys[:pos], append([]string{key}, o.keys[pos:]...)...)
	o.vals[key] = val
}

// del removes the member if present.
func (o *jsonObject) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// clone is a deep copy.
func (o *jsonObject) clone() *jsonObject {
	c := &jsonObject{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = cloneJSON(v)
	}
	return c
}

func cloneJSON(v any) any {
	switch t := v.(type) {
	case *jsonObject:
		return t.clone()
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = cloneJSON(e)
		}
		return c
	default:
		return v
	}
}

// MarshalJSON writes the members in order, compact, as encoding/json would.
func (o *jsonObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := json.Marshal(o.vals[k])
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
