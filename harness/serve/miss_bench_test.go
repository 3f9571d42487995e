package serve

import (
	"encoding/json"
	"strings"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// nearMiss is the first recorded request of the demo cassette with one
// extra member of n bytes: it matches nothing, and the demo's first
// request is its nearest.
func nearMiss(tb testing.TB, n int) []byte {
	tb.Helper()
	c := vcr.New("")
	if err := yaml.Unmarshal(servedCassettes(tb, "demo")[0].Data, c); err != nil {
		tb.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(c.Interactions[0].Request.Body), &body); err != nil {
		tb.Fatal(err)
	}
	body["padding"] = strings.Repeat("x", n)
	out, err := json.Marshal(body)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkMissLargeBody answers an 11 MiB near miss against the embedded
// base cassettes, as agentvcr serve does with no -cassette: the canonical
// key of the request, the nearest recorded request and the diff.
func BenchmarkMissLargeBody(b *testing.B) {
	r, err := NewReplayer("base", MatchBody, servedCassettes(b, "demo", "demo_bad_args", "demo_unknown_tool", "parallel", "read_generated")...)
	if err != nil {
		b.Fatal(err)
	}
	body := nearMiss(b, 11<<20)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for range b.N {
		if _, err := r.Answer(Request{Method: "POST", Path: "/v1/chat/completions", Body: body}); err == nil {
			b.Fatal("a near miss matched")
		}
	}
}
