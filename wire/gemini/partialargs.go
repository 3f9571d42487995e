package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// partialArg is one piece of a call's arguments streamed by JSON path
// (Vertex AI's streamFunctionCallArguments, Gemini 3): the value at
// JSONPath, or for a string one more piece of it.
type partialArg struct {
	JSONPath     string          `json:"jsonPath"`
	StringValue  *string         `json:"stringValue,omitempty"`
	NumberValue  json.RawMessage `json:"numberValue,omitempty"`
	BoolValue    *bool           `json:"boolValue,omitempty"`
	NullValue    json.RawMessage `json:"nullValue,omitempty"`
	WillContinue bool            `json:"willContinue,omitempty"`
}

// argsBuilder builds one call's arguments from its partialArgs: an object
// whose members keep the order in which their paths first came, arrays
// filled by index, strings joined piece by piece. Each string is a
// textValue of its own, so a call whose arguments stream in a million
// pieces costs what its arguments weigh, not the square of it, and JSON
// writes the text once into a buffer sized for it.
type argsBuilder struct {
	root node
}

// node is one value of the arguments being built.
type node struct {
	kind  nodeKind
	keys  []string         // object: member names in first-seen order
	vals  map[string]*node // object: members by name
	elems []*node          // array
	str   textValue        // string: the text joined so far
	raw   []byte           // scalar: the number, true, false or null as JSON
}

type nodeKind uint8

const (
	hole   nodeKind = iota // an array slot no piece has filled yet: null
	object                 // {…}
	array                  // […]
	text                   // a string
	scalar                 // a number, a boolean or null
)

func (k nodeKind) String() string {
	return [...]string{"nothing", "an object", "an array", "a string", "a scalar"}[k]
}

// newArgsBuilder starts from the call's own args object (a call may carry
// some arguments whole and stream the rest); "{}" or nothing is an empty
// object.
func newArgsBuilder(args string) (*argsBuilder, error) {
	b := &argsBuilder{root: node{kind: object}}
	if args == "{}" {
		return b, nil
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if err := readNode(dec, &b.root); err != nil || b.root.kind != object {
		return nil, fmt.Errorf("a streamed call's args %s are not a JSON object", clip([]byte(args)))
	}
	return b, nil
}

// readNode reads the next JSON value of dec into n, keeping member order.
func readNode(dec *json.Decoder, n *node) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			*n = node{kind: object}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				c := n.member(k.(string))
				if err := readNode(dec, c); err != nil {
					return err
				}
			}
		} else {
			*n = node{kind: array}
			for dec.More() {
				c := &node{}
				if err := readNode(dec, c); err != nil {
					return err
				}
				n.elems = append(n.elems, c)
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	case string:
		*n = node{kind: text}
		n.str.add(t)
	case json.Number:
		*n = node{kind: scalar, raw: []byte(t)}
	case bool:
		*n = node{kind: scalar, raw: []byte(strconv.FormatBool(t))}
	case nil:
		*n = node{kind: scalar, raw: []byte("null")}
	}
	return nil
}

// member is the object n's member name, made (a hole) when new.
func (n *node) member(name string) *node {
	if c, ok := n.vals[name]; ok {
		return c
	}
	if n.vals == nil {
		n.vals = map[string]*node{}
	}
	c := &node{}
	n.keys = append(n.keys, name)
	n.vals[name] = c
	return c
}

// add applies one partial argument: a string piece is appended to the
// string at its path (the first piece makes it), any other value replaces
// what is there. A piece with no value (only a path and willContinue) only
// makes the containers on its path. A path that runs into a value of
// another kind (an index into an object, a string piece onto a number) is
// an error: the arguments cannot be built, and the call must not run.
func (b *argsBuilder) add(pa partialArg) error {
	path, err := parseJSONPath(pa.JSONPath)
	if err != nil {
		return err
	}
	if len(path) == 0 {
		return fmt.Errorf("partialArgs path %q names the arguments object itself, not a member of it", pa.JSONPath)
	}
	n := &b.root
	for i, seg := range path {
		n, err = n.step(seg, pa.JSONPath, path[:i])
		if err != nil {
			return err
		}
	}
	switch {
	case pa.StringValue != nil:
		switch n.kind {
		case hole:
			*n = node{kind: text}
		case text:
		default:
			return fmt.Errorf("partialArgs path %q: a string piece where %s is", pa.JSONPath, n.kind)
		}
		n.str.add(*pa.StringValue)
	case len(pa.NumberValue) > 0:
		num := bytes.TrimSpace(pa.NumberValue)
		if !isJSONNumber(num) {
			return fmt.Errorf("partialArgs path %q: numberValue %s is not a JSON number", pa.JSONPath, clip(num))
		}
		*n = node{kind: scalar, raw: num}
	case pa.BoolValue != nil:
		*n = node{kind: scalar, raw: []byte(strconv.FormatBool(*pa.BoolValue))}
	case len(pa.NullValue) > 0:
		*n = node{kind: scalar, raw: []byte("null")}
	}
	return nil
}

// step moves from n to the value seg names, making the object or array on
// the way (a hole becomes the container seg needs).
func (n *node) step(seg pathSeg, path string, before []pathSeg) (*node, error) {
	want := object
	if seg.isIndex {
		want = array
	}
	switch n.kind {
	case hole:
		*n = node{kind: want}
	case want:
	default:
		return nil, fmt.Errorf("partialArgs path %q: %s is %s, not %s", path, "$"+joinSegs(before), n.kind, want)
	}
	if !seg.isIndex {
		return n.member(seg.name), nil
	}
	for len(n.elems) <= seg.index {
		n.elems = append(n.elems, &node{})
	}
	return n.elems[seg.index], nil
}

// JSON is the arguments built so far as compact JSON text: members in the
// order their paths came, strings escaped as encoding/json escapes them
// without HTML escaping (what Gemini itself sends in args), holes null.
func (b *argsBuilder) JSON() string {
	var out strings.Builder
	out.Grow(b.root.size())
	b.root.write(&out)
	return out.String() // a strings.Builder hands over its buffer: no copy
}

// size is about how long n's JSON text is: exact but for escapes, which
// only lengthen it, so the buffer JSON writes into grows rarely.
func (n *node) size() int {
	switch n.kind {
	case hole:
		return len("null")
	case scalar:
		return len(n.raw)
	case text:
		return n.str.n + 2
	case object:
		size := 2 + len(n.keys) // braces, colons and commas
		for _, k := range n.keys {
			size += len(k) + 2 + n.vals[k].size()
		}
		return size
	default: // array
		size := 2 + len(n.elems)
		for _, e := range n.elems {
			size += e.size()
		}
		return size
	}
}

func (n *node) write(out *strings.Builder) {
	switch n.kind {
	case hole:
		out.WriteString("null")
	case scalar:
		out.Write(n.raw)
	case text:
		out.WriteByte('"')
		for _, seg := range n.str.segments() {
			writeJSONChars(out, seg)
		}
		out.WriteByte('"')
	case object:
		out.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteByte('"')
			writeJSONChars(out, k)
			out.WriteString(`":`)
			n.vals[k].write(out)
		}
		out.WriteByte('}')
	case array:
		out.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				out.WriteByte(',')
			}
			e.write(out)
		}
		out.WriteByte(']')
	}
}

// isJSONNumber reports whether b is one JSON number and nothing else.
func isJSONNumber(b []byte) bool {
	var n json.Number
	return len(b) > 0 && (b[0] == '-' || ('0' <= b[0] && b[0] <= '9')) && json.Unmarshal(b, &n) == nil
}
