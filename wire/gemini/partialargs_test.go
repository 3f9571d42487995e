package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseJSONPath(t *testing.T) {
	tests := []struct {
		path, want, err string
	}{
		{path: "$.path", want: ".path"},
		{path: "$.recipe.steps[4]", want: ".recipe.steps[4]"},
		{path: "$['a.b'][0][\"c\\\"d\"]", want: `["a.b"][0]["c\"d"]`},
		{path: `$['\u4e2d']`, want: ".中"},
		{path: "city", want: ".city"},
		{path: "[2].x", want: "[2].x"},
		{path: "$", want: ""},
		{path: "$.", err: `partialArgs path "$.": a '.' with no member name after it`},
		{path: "$.a[", err: `partialArgs path "$.a[": a '[' without its ']'`},
		{path: "$.a[-1]", err: `partialArgs path "$.a[-1]": "-1" is not an array index`},
		{path: "$.a[01]", err: `partialArgs path "$.a[01]": "01" is not an array index`},
		{path: "$.a[x]", err: `partialArgs path "$.a[x]": "x" is not an array index`},
		{path: "$['a]", err: `partialArgs path "$['a]": a quoted member name that does not close with its quote and ']'`},
		{path: "$a", err: `partialArgs path "$a": unexpected "a"`},
	}
	for _, tt := range tests {
		segs, err := parseJSONPath(tt.path)
		got := joinSegs(segs)
		if err != nil {
			got = ""
		}
		if fmt.Sprint(err) != fmt.Sprint(errOrNil(tt.err)) || got != tt.want {
			t.Errorf("parseJSONPath(%q) = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.err)
		}
	}
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return fmt.Errorf("%s", s)
}

func str(s string) *string { return &s }

// Pieces that cannot build arguments are refused with the path and the
// clash named; a Merge over them fails with the call named and keeps the
// turn merged so far.
func TestArgsBuilderRefuses(t *testing.T) {
	tests := []struct {
		pieces []partialArg
		err    string
	}{
		{[]partialArg{{JSONPath: "$.a", NumberValue: json.RawMessage("1")}, {JSONPath: "$.a", StringValue: str("x")}},
			`partialArgs path "$.a": a string piece where a scalar is`},
		{[]partialArg{{JSONPath: "$.a", StringValue: str("x")}, {JSONPath: "$.a[0]", StringValue: str("y")}},
			`partialArgs path "$.a[0]": $.a is a string, not an array`},
		{[]partialArg{{JSONPath: "$.a[0]", StringValue: str("x")}, {JSONPath: "$.a.b", StringValue: str("y")}},
			`partialArgs path "$.a.b": $.a is an array, not an object`},
		{[]partialArg{{JSONPath: "$", StringValue: str("x")}},
			`partialArgs path "$" names the arguments object itself, not a member of it`},
		{[]partialArg{{JSONPath: "$.n", NumberValue: json.RawMessage(`"NaN"`)}},
			`partialArgs path "$.n": numberValue "NaN" is not a JSON number`},
	}
	for _, tt := range tests {
		b, _ := newArgsBuilder("{}")
		var err error
		for _, pa := range tt.pieces {
			if err = b.add(pa); err != nil {
				break
			}
		}
		if fmt.Sprint(err) != tt.err {
			t.Errorf("pieces %+v: error %v, want %s", tt.pieces, err, tt.err)
		}
	}
	stream := "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Reading.\"},{\"functionCall\":{\"name\":\"read_file\",\"willContinue\":true}}]}}]}\n\n" +
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.path\",\"numberValue\":1},{\"jsonPath\":\"$.path\",\"stringValue\":\"x\"}],\"willContinue\":true}}]}}]}\n\n"
	got, err := Merge(strings.NewReader(stream))
	if fmt.Sprint(err) != `call read_file: partialArgs path "$.path": a string piece where a scalar is` || got.Text != "Reading." || len(got.ToolCalls) != 1 {
		t.Errorf("Merge: %v, turn %+v", err, got)
	}
	if _, err := Merge(strings.NewReader("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.a\",\"stringValue\":\"x\"}]}}]}}]}\n\n")); fmt.Sprint(err) != "a functionCall part without a name streams arguments (partialArgs) before any call" {
		t.Errorf("nameless pieces with no call: %v", err)
	}
}

// refValue is the reference builder's value: a plain tree of Go values,
// written independently of argsBuilder's nodes.
type refObject struct {
	keys []string
	m    map[string]any
}
type refHole struct{}
type refNull struct{}
type refNumber string

// refSet applies one piece to the reference tree.
func refSet(root *refObject, segs []pathSeg, pa partialArg) error {
	var cur any = root
	for i, seg := range segs {
		last := i == len(segs)-1
		var get func() any
		var put func(any)
		switch c := cur.(type) {
		case *refObject:
			if seg.isIndex {
				return fmt.Errorf("clash")
			}
			get = func() any {
				if v, ok := c.m[seg.name]; ok {
					return v
				}
				return refHole{}
			}
			put = func(v any) {
				if _, ok := c.m[seg.name]; !ok {
					c.keys = append(c.keys, seg.name)
				}
				c.m[seg.name] = v
			}
		case *[]any:
			if !seg.isIndex {
				return fmt.Errorf("clash")
			}
			for len(*c) <= seg.index {
				*c = append(*c, refHole{})
			}
			get = func() any { return (*c)[seg.index] }
			put = func(v any) { (*c)[seg.index] = v }
		default:
			return fmt.Errorf("clash")
		}
		if !last {
			next := get()
			if _, ok := next.(refHole); ok {
				if segs[i+1].isIndex {
					next = &[]any{}
				} else {
					next = &refObject{m: map[string]any{}}
				}
				put(next)
			}
			cur = next
			continue
		}
		switch {
		case pa.StringValue != nil:
			switch v := get().(type) {
			case refHole:
				put(*pa.StringValue)
			case string:
				put(v + *pa.StringValue)
			default:
				return fmt.Errorf("clash")
			}
		case len(pa.NumberValue) > 0:
			put(refNumber(pa.NumberValue))
		case pa.BoolValue != nil:
			put(*pa.BoolValue)
		case len(pa.NullValue) > 0:
			put(refNull{})
		default:
			if _, ok := get().(refHole); ok {
				put(refHole{}) // a piece with no value makes the member, null
			}
		}
	}
	return nil
}

func refJSON(v any) string {
	switch v := v.(type) {
	case *refObject:
		var parts []string
		for _, k := range v.keys {
			kb, _ := json.Marshal(k)
			parts = append(parts, string(kb)+":"+refJSON(v.m[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case *[]any:
		var parts []string
		for _, e := range *v {
			parts = append(parts, refJSON(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		return strings.TrimSuffix(b.String(), "\n")
	case refNumber:
		return string(v)
	case bool:
		return fmt.Sprint(v)
	}
	return "null" // refHole, refNull
}

// FuzzArgsBuilder holds argsBuilder to the reference tree on any sequence
// of pieces over a few paths (members, indexes, nesting, clashes): the same
// JSON text, key order included, or both refuse.
func FuzzArgsBuilder(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 3, 3, 7, 7, 1, 0x40, 0x41})
	f.Add([]byte{9, 0x13, 0x25, 0x37, 0x49, 0x5b, 0x6d})
	paths := []string{"$.a", "$.b", "$.a.x", "$.a[0]", "$.l[1]", "$.l[0]", "$.l[0].t", "$['k k']", "$.a.x.y", "$.l[2][0]", "$.中"}
	numbers := []string{"0", "-1.5", "2e3", "12345678901234567890"}
	pieces := []string{"", "a", "\"", "\\", "中", "\n", "<&>", "\u2028", "é✓"}
	f.Fuzz(func(t *testing.T, ops []byte) {
		b, _ := newArgsBuilder("{}")
		ref := &refObject{m: map[string]any{}}
		var berr, rerr error
		for _, op := range ops {
			pa := partialArg{JSONPath: paths[int(op)%len(paths)]}
			switch k := int(op>>4) % 5; k {
			case 0, 1:
				pa.StringValue = &pieces[int(op>>2)%len(pieces)]
			case 2:
				pa.NumberValue = json.RawMessage(numbers[int(op>>6)%len(numbers)])
			case 3:
				v := op&0x40 != 0
				pa.BoolValue = &v
			case 4:
				pa.NullValue = json.RawMessage(`"NULL_VALUE"`)
			}
			segs, _ := parseJSONPath(pa.JSONPath)
			berr, rerr = b.add(pa), refSet(ref, segs, pa)
			if (berr == nil) != (rerr == nil) {
				t.Fatalf("after %q: builder error %v, reference error %v", pa.JSONPath, berr, rerr)
			}
			if berr != nil {
				return
			}
		}
		if diff := cmp.Diff(refJSON(ref), b.JSON()); diff != "" {
			t.Errorf("(-reference +builder):\n%s", diff)
		}
		if !json.Valid([]byte(b.JSON())) {
			t.Errorf("builder JSON is not valid: %s", b.JSON())
		}
	})
}
