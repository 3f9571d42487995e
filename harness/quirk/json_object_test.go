package quirk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// jsonEdges are the shapes where a hand-written JSON reader or writer
// could part from encoding/json: escapes, surrogates, invalid UTF-8, the
// HTML characters, U+2028, duplicate keys, numbers, white space, values
// that are not objects, invalid and trailing data.
var jsonEdges = []string{
	`{}`, ` { } `, "\t{\r\n\"a\" :\n1 }\n", `{"a":1,"a":2,"b":3,"a":4}`,
	`{"s":"plain","e":"\"\\\/\b\f\n\r\t","u":"\u00e9\u003c\u2028\ud83d\ude00","lone":"\ud800x","bad":"` + "\xff\xfe" + `","bad2":"` + "\x80\xc3(" + `"}`,
	`{"html":"<a href=\"x\">&amp;</a>","ctl":"\u0000\u001f\u007f","ls":"` + "\u2028\u2029" + `"}`,
	`{"n":[0,-0,1.5,-2e10,3E+2,4e-2,12345678901234567890,0.000001]}`,
	`{"nest":{"a":[[],[{}],[1,"x",true,false,null]],"b":{"c":{"d":[]}}}}`,
	`{"u":"\u0041\u4E2D\uFFFD\udc00\ud83d\ude00x\ud83dx"}`, `{"k\u00e9y":1,"k\"q":2,"<":3}`, `{"arguments":"{\"path\":\"a\\\\b.go\",\"n\":1}"}`,
	manyKeys, `[1,2]`, `"x"`, `3`, `true`, `null`,
	``, `{`, `{"a":}`, `{"a":1}x`, `{"a":1} {"b":2}`, `{"a":1,}`, `{'a':1}`, `{"a":01}`, `{"a":"` + "\x01" + `"}`,
	// what the one-pass reader checks as it reads
	`{,"a":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":[1 2]}`, `{"a":[1,]}`, `{"a":[,1]}`, `{1:2}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":fals}`, `{"a":-}`, `{"a":-01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":+1}`, `{"a":"\x"}`,
	`{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":"x`, `{"a":"x\`, `{"a"`, `{"a":`, `{"a":[`, `{"a":1`, "{\"a\":1}\x00",
	`{x":1}`, `{"a":1,x":2}`, `{"a":trux}`, `{"a":nulx}`, `{"a":falsx}`, `{"a":"\u1`, `{"a":"\u12z4"}`, `{"a":"\u12:4"}`,
	`{"d":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}`, // past the reader's bound
}

// manyKeys is an object past indexFrom members, with keys met again
// before and after the index is built.
var manyKeys = func() string {
	s := `{"k3":"first"`
	for i := range indexFrom + 4 {
		s += fmt.Sprintf(`,"k%d":%d`, i, i)
	}
	return s + `,"k1":"again","k19":"again"}`
}()

// TestJSONObjectEdits: set, setAfter and del keep an object's members in
// the order a list of keys and a map would, and get finds every member,
// on objects below and past indexFrom members (where an index is kept).
func TestJSONObjectEdits(t *testing.T) {
	for n := range 2*indexFrom + 2 {
		o := &jsonObject{}
		var keys []string
		vals := map[string]any{}
		check := func(op string) {
			t.Helper()
			if len(o.members) != len(keys) {
				t.Fatalf("%d members, %s: %d, want %d", n, op, len(o.members), len(keys))
			}
			for i, k := range keys {
				if o.members[i].key != k {
					t.Fatalf("%d members, %s: member %d is %q, want %q", n, op, i, o.members[i].key, k)
				}
				if v, ok := o.get(k); !ok || v != vals[k] {
					t.Fatalf("%d members, %s: get(%q) = %v, %v; want %v", n, op, k, v, ok, vals[k])
				}
			}
			if _, ok := o.get("absent"); ok {
				t.Fatalf("%d members, %s: an absent key is found", n, op)
			}
		}
		for i := range n {
			k := fmt.Sprintf("k%d", i)
			o.set(k, i)
			keys, vals[k] = append(keys, k), i
		}
		check("set")
		o.set("k0", "again")
		if n > 0 {
			vals["k0"] = "again"
		} else {
			keys, vals["k0"] = append(keys, "k0"), "again"
		}
		check("set again")
		o.setAfter("k1", "after", "x")
		pos := slices.Index(keys, "k1") + 1
		keys, vals["after"] = slices.Insert(keys, pos, "after"), "x"
		check("setAfter")
		for _, k := range []string{"k0", "k5", "after", fmt.Sprint("k", n-1)} {
			o.del(k)
			if i := slices.Index(keys, k); i >= 0 {
				keys = slices.Delete(keys, i, i+1)
				delete(vals, k)
			}
			check("del " + k)
		}
		c := o.clone()
		c.set("k2", "changed")
		check("clone changed")
	}
}

// checkJSONObject fails when parseJSONObject and MarshalJSON part from
// the encoding/json path (decodeJSONObject, marshalJSON) on data.
func checkJSONObject(t *testing.T, data []byte) {
	t.Helper()
	got, err := parseJSONObject(string(data))
	want, werr := decodeJSONObject(data)
	if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
		t.Fatalf("%q: parse error %v, the decoder's %v", data, err, werr)
	}
	if err != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: parsed %#v, the decoder %#v", data, got, want)
	}
	checkMarshal(t, got, want)
}

// checkMarshal fails when got.MarshalJSON parts from json.Marshal of
// each member (want.marshalJSON, and refMarshal, which never calls
// MarshalJSON) or of the whole object.
func checkMarshal(t *testing.T, got, want *jsonObject) {
	t.Helper()
	b, err := got.MarshalJSON()
	wb, werr := want.marshalJSON()
	if err != nil || werr != nil || string(b) != string(wb) {
		t.Fatalf("written %s (%v), json.Marshal of each member %s (%v)", b, err, wb, werr)
	}
	if wb := refMarshal(t, want); string(b) != string(wb) {
		t.Fatalf("written %s, json.Marshal of each value %s", b, wb)
	}
	if wb, werr = json.Marshal(want); werr != nil || string(b) != string(wb) {
		t.Fatalf("written %s, json.Marshal %s (%v)", b, wb, werr)
	}
}

// refMarshal writes v with json.Marshal for every key and every value
// that is not an ordered object or an array.
func refMarshal(t *testing.T, v any) []byte {
	t.Helper()
	var out []byte
	switch v := v.(type) {
	case *jsonObject:
		if v == nil {
			return []byte("null")
		}
		out = append(out, '{')
		for i, m := range v.members {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, refMarshal(t, m.key)...)
			out = append(out, ':')
			out = append(out, refMarshal(t, m.val)...)
		}
		return append(out, '}')
	case []any:
		if v == nil {
			return []byte("null")
		}
		out = append(out, '[')
		for i, e := range v {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, refMarshal(t, e)...)
		}
		return append(out, ']')
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMarshalJSONLeavesOthersToEncodingJSON: members of other types than
// a parse gives (raw JSON with spaces and HTML characters, Go numbers and
// slices, a number json.Marshal writes as 0), each in an object of
// parsed values, and nil arrays and objects, are written as json.Marshal
// writes them, in an object or an array and at any depth.
func TestMarshalJSONLeavesOthersToEncodingJSON(t *testing.T) {
	for _, other := range []any{json.RawMessage(`{ "a" : "<b>" , "c":[1, 2] }`), 7, 2.5, []string{"x", "&"},
		json.Number(""), []any(nil), (*jsonObject)(nil), map[string]any{"m": "<"}} {
		inner, err := parseJSONObject(`{"s":"<é>","n":1.5,"a":[true,null,{}]}`)
		if err != nil {
			t.Fatal(err)
		}
		inner.setAfter("s", "other", other)
		o, _ := parseJSONObject(`{"first":"x","arr":[1],"last":{}}`)
		o.set("arr", []any{json.Number("1"), inner, other})
		o.set("obj", inner)
		checkMarshal(t, o, o)
		checkMarshal(t, inner, inner)
	}
}

// TestJSONObjectIsEncodingJSON: the one-pass reader and writer of ordered
// objects read and write what encoding/json does, on every distinct data
// of every answer TestStreamIsApply streams (the same bytes read the same:
// a data recorded again is checked once) and on the edges above.
func TestJSONObjectIsEncodingJSON(t *testing.T) {
	for _, e := range jsonEdges {
		checkJSONObject(t, []byte(e))
	}
	seen := map[string]bool{}
	for _, body := range answers(t) {
		for _, ev := range sse.Parse(body) {
			if ev.HasData && !seen[ev.Data] {
				seen[ev.Data] = true
				checkJSONObject(t, []byte(ev.Data))
			}
		}
	}
	if len(seen) < 1000 {
		t.Fatalf("only %d distinct events read", len(seen))
	}
}

// TestAppendStringIsMarshal: every byte alone, and the runes json.Marshal
// escapes or replaces, are quoted as json.Marshal quotes them.
func TestAppendStringIsMarshal(t *testing.T) {
	var cases []string
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"b")
	}
	cases = append(cases, "\u2028", "x\u2029y", "\ufffd", "é€😀", "\xed\xa0\x80", "\xf0\x9f\x98", string(utf8.MaxRune))
	for _, s := range cases {
		checkString(t, s)
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, _ := json.Marshal(s)
	if got := appendString(nil, s); string(got) != string(want) {
		t.Fatalf("%q: written %s, json.Marshal %s", s, got, want)
	}
}

// TestValidNumberIsMarshal: a json.Number is written as json.Marshal
// writes it; validNumber refuses only the literals json.Marshal refuses
// (and "", which it writes as 0).
func TestValidNumberIsMarshal(t *testing.T) {
	for _, s := range []string{"", "0", "-0", "1", "10", "-12", "1.5", "0.0", "1e5", "1E+5", "1e-05", "-1.25e10",
		"01", "-", "+1", "1.", ".5", "1e", "1e+", "--1", "1.5.2", "0x10", "NaN", " 1", "1 ", "1_000"} {
		checkNumber(t, s)
	}
}

func checkNumber(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(json.Number(s))
	got, ok := appendJSON(nil, json.Number(s))
	if ok != (err == nil && s != "") || (ok && string(got) != string(want)) {
		t.Fatalf("%q: written %s (%v), json.Marshal %s (%v)", s, got, ok, want, err)
	}
}

// FuzzJSONObject: arbitrary data is read and written as encoding/json
// does, and so are arbitrary strings and number literals.
func FuzzJSONObject(f *testing.F) {
	for _, e := range jsonEdges {
		f.Add([]byte(e))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkJSONObject(t, data)
		checkString(t, string(data))
		checkNumber(t, string(data))
	})
}
