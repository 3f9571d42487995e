package cassette

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCanonicalBody(t *testing.T) {
	tests := []struct {
		reason, in, wantCompact, wantPretty string
	}{
		{"keys sorted, spaces dropped", `{ "b": 1, "a": {"d": [1, 2], "c": null} }`,
			`{"a":{"c":null,"d":[1,2]},"b":1}`, "{\n  \"a\": {\n    \"c\": null,\n    \"d\": [\n      1,\n      2\n    ]\n  },\n  \"b\": 1\n}"},
		{"numbers kept as written", `{"x":1.50,"y":1e3,"z":12345678901234567890}`,
			`{"x":1.50,"y":1e3,"z":12345678901234567890}`, "{\n  \"x\": 1.50,\n  \"y\": 1e3,\n  \"z\": 12345678901234567890\n}"},
		{"no HTML escaping", `{"s":"<a&b>"}`, `{"s":"<a&b>"}`, "{\n  \"s\": \"<a&b>\"\n}"},
		{"empty body", "  \n", "", ""},
		{"not JSON kept as is", "hello", "hello", "hello"},
		{"two values are not one JSON body", `{"a":1}{"b":2}`, `{"a":1}{"b":2}`, `{"a":1}{"b":2}`},
	}
	for _, tt := range tests {
		k := KeyOf("POST", "/v1/x", []byte(tt.in))
		compact, pretty := k.body, k.pretty()
		if diff := cmp.Diff([]string{tt.wantCompact, tt.wantPretty}, []string{compact, pretty}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestKeyMatches(t *testing.T) {
	base := KeyOf("POST", "http://a:1/v1/chat/completions?x=1", []byte(`{"a":1,"b":[true]}`))
	tests := []struct {
		reason string
		other  RequestKey
		want   bool
	}{
		{"other host, query, key order and spacing", KeyOf("POST", "https://b/v1/chat/completions", []byte(`{ "b":[true], "a":1 }`)), true},
		{"other method", KeyOf("PUT", "http://a:1/v1/chat/completions", []byte(`{"a":1,"b":[true]}`)), false},
		{"other path", KeyOf("POST", "http://a:1/v1/completions", []byte(`{"a":1,"b":[true]}`)), false},
		{"other value", KeyOf("POST", "http://a:1/v1/chat/completions", []byte(`{"a":2,"b":[true]}`)), false},
		{"1 and 1.0 differ: numbers are compared as written", KeyOf("POST", "http://a:1/v1/chat/completions", []byte(`{"a":1.0,"b":[true]}`)), false},
	}
	for _, tt := range tests {
		if got := base.Matches(tt.other); got != tt.want {
			t.Errorf("%s: matches = %v, want %v", tt.reason, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []RequestKey{
		KeyOf("POST", "/v1/chat/completions", []byte(`{"m":[1,2,3],"x":"a"}`)),
		KeyOf("POST", "/v1/other", []byte(`{"m":[1,2,3],"x":"b"}`)),
		KeyOf("POST", "/v1/chat/completions", []byte(`{"m":[1,2,9],"x":"b"}`)),
	}
	sent := KeyOf("POST", "/v1/chat/completions", []byte(`{"m":[1,2,3],"x":"b"}`))
	tests := []struct {
		reason string
		used   []bool
		want   int
	}{
		{"same route, fewest differing lines; the exact body on another path loses", []bool{false, false, false}, 0},
		{"first used: the next same-route one", []bool{true, false, false}, 2},
		{"only another route is left", []bool{true, false, true}, 1},
		{"all used", []bool{true, true, true}, -1},
	}
	for _, tt := range tests {
		if got := Nearest(keys, tt.used, sent); got != tt.want {
			t.Errorf("%s: nearest = %d, want %d", tt.reason, got, tt.want)
		}
	}
}

func BenchmarkCanonicalBody(b *testing.B) {
	body := []byte(`{"model":"m","stream":true,"messages":[` + strings.Repeat(`{"role":"tool","tool_call_id":"call_1","content":"`+strings.Repeat("x", 2000)+`"},`, 20) + `{"role":"user","content":"hi"}]}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		canonicalBody(body, nil)
	}
}
