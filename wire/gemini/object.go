package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
)

// orderedObject is a JSON object whose members keep their order, so that
// merged args print in the order the model sent them.
type orderedObject []member

type member struct {
	key   string
	value json.RawMessage
}

var errNotObject = errors.New("not a JSON object")

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errNotObject
	}
	*o = nil
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = o.set(tok.(string), v)
	}
	return nil
}

// set replaces key's value, or appends the member when key is new.
func (o orderedObject) set(key string, value json.RawMessage) orderedObject {
	for i := range o {
		if o[i].key == key {
			o[i].value = value
			return o
		}
	}
	return append(o, member{key, value})
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(kv.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		if err := json.Compact(&b, kv.value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
