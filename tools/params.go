package tools

import (
	"bytes"
	"encoding/json"
)

// param is one property of a tool's parameter schema. Bounds is extra schema
// text, e.g. `"minimum":1,"maximum":400`.
type param struct {
	name, typ, desc, bounds string
}

// objectSchema writes a parameter schema with its keys in a fixed order:
// type, properties (in the order given), required, additionalProperties false.
func objectSchema(required []string, params ...param) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(p.name))
		b.WriteString(`:{"type":`)
		b.Write(jsonString(p.typ))
		b.WriteString(`,"description":`)
		b.Write(jsonString(p.desc))
		if p.bounds != "" {
			b.WriteByte(',')
			b.WriteString(p.bounds)
		}
		b.WriteByte('}')
	}
	b.WriteString(`},"required":`)
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	b.Write(req)
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
