package chat

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
	"github.com/google/go-cmp/cmp"
)

// templateAfter returns a template that remembered the chunk first, when
// the scanner read it.
func templateAfter(first []byte) *chunkTemplate {
	t := new(chunkTemplate)
	var c chunk
	scanChunkTemplate(first, &c, nil, t)
	return t
}

// checkTemplateMatch: when the template matches data, data is a chunk that
// encoding/json decodes to exactly what match returned.
func checkTemplateMatch(t *testing.T, tmpl *chunkTemplate, data []byte) bool {
	t.Helper()
	got := tmpl.match(data)
	if got == nil {
		return false
	}
	var want chunk
	var d chunkDecoder
	if err := d.decode(data, &want); err != nil {
		t.Fatalf("template matched %q, encoding/json says %v", data, err)
	}
	if diff := cmp.Diff(want, *got, chunkCmp); diff != "" {
		t.Fatalf("template chunk differs for %q (-json +template):\n%s", data, diff)
	}
	return true
}

const (
	argsChunk    = `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"a"}}]},"logprobs":null,"finish_reason":null}]}`
	contentChunk = `{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}`
)

// TestChunkTemplate: a chunk matches the template only when it is the
// remembered chunk with other values of the same kind in the holes, and it
// then decodes to what encoding/json gives; chunks of other shapes are
// never remembered.
func TestChunkTemplate(t *testing.T) {
	tests := []struct {
		reason, first, next string
		match               bool
	}{
		{"another index and piece", argsChunk, strings.Replace(strings.Replace(argsChunk, `"index":1,`, `"index":12,`, 1), `{\"a`, `\"b\u00e9\n`, 1), true},
		{"a negative index", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":-3,`, 1), true},
		{"the same chunk", argsChunk, argsChunk, true},
		{"empty arguments", argsChunk, strings.Replace(argsChunk, `{\"a`, ``, 1), true},
		{"other content", contentChunk, strings.Replace(contentChunk, `"Hel"`, `"lo \"w\" \ud83d\ude00"`, 1), true},
		{"an index that is not an integer", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":1.5,`, 1), false},
		{"an index with an exponent", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":1e2,`, 1), false},
		{"an index as a string", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":"1",`, 1), false},
		{"a null index", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":null,`, 1), false},
		{"an index of 19 digits", argsChunk, strings.Replace(argsChunk, `"index":1,`, `"index":1234567890123456789,`, 1), false},
		{"null arguments", argsChunk, strings.Replace(argsChunk, `"{\"a"`, `null`, 1), false},
		{"object arguments", argsChunk, strings.Replace(argsChunk, `"{\"a"`, `{"a":1}`, 1), false},
		{"a space before the value", argsChunk, strings.Replace(argsChunk, `"arguments":"`, `"arguments": "`, 1), false},
		{"another id", argsChunk, strings.Replace(argsChunk, `"c1"`, `"c2"`, 1), false},
		{"another choice index", argsChunk, strings.Replace(argsChunk, `[{"index":0,`, `[{"index":1,`, 1), false},
		{"a finish reason", argsChunk, strings.Replace(argsChunk, `"finish_reason":null`, `"finish_reason":"stop"`, 1), false},
		{"a second piece", argsChunk, strings.Replace(argsChunk, `"}}]}`, `"}},{"index":2}]}`, 1), false},
		{"a member after the end", argsChunk, strings.TrimSuffix(argsChunk, "}") + `,"usage":{"total_tokens":1}}`, false},
		{"cut short", argsChunk, argsChunk[:len(argsChunk)-1], false},
		{"an unterminated string", argsChunk, argsChunk[:strings.Index(argsChunk, `{\"a`)], false},
		{"a bad escape", argsChunk, strings.Replace(argsChunk, `{\"a`, `\x`, 1), false},
		{"a control byte", argsChunk, strings.Replace(argsChunk, `{\"a`, "\x01", 1), false},
		{"content in an arguments chunk", argsChunk, strings.Replace(contentChunk, `"Hel"`, `"x"`, 1), false},
		{"content as parts", contentChunk, strings.Replace(contentChunk, `"Hel"`, `[{"type":"text","text":"x"}]`, 1), false},
		{"null content", contentChunk, strings.Replace(contentChunk, `"Hel"`, `null`, 1), false},
		// Chunks of other shapes are not remembered: nothing matches after them.
		{"a piece that opens a call", strings.Replace(argsChunk, `"index":1,`, `"index":1,"id":"call_1",`, 1), strings.Replace(argsChunk, `"index":1,`, `"index":1,"id":"call_1",`, 1), false},
		{"a piece with a name", strings.Replace(argsChunk, `"function":{`, `"function":{"name":"f",`, 1), strings.Replace(argsChunk, `"function":{`, `"function":{"name":"f",`, 1), false},
		{"a chunk with usage", strings.TrimSuffix(argsChunk, "}") + `,"usage":{"total_tokens":1}}`, strings.TrimSuffix(argsChunk, "}") + `,"usage":{"total_tokens":1}}`, false},
		{"an error object", `{"object":"error","choices":[{"delta":{"content":"x"}}]}`, `{"object":"error","choices":[{"delta":{"content":"x"}}]}`, false},
		{"reasoning", `{"choices":[{"delta":{"content":"x","reasoning":"r"}}]}`, `{"choices":[{"delta":{"content":"x","reasoning":"r"}}]}`, false},
		{"two choices", `{"choices":[{"delta":{"content":"x"}},{"index":1,"delta":{"content":"y"}}]}`, `{"choices":[{"delta":{"content":"x"}},{"index":1,"delta":{"content":"y"}}]}`, false},
		{"extra_content", strings.Replace(argsChunk, `"function":{`, `"extra_content":{"x":1},"function":{`, 1), strings.Replace(argsChunk, `"function":{`, `"extra_content":{"x":1},"function":{`, 1), false},
		{"a piece without an index", strings.Replace(argsChunk, `"index":1,`, ``, 1), strings.Replace(argsChunk, `"index":1,`, ``, 1), false},
	}
	for _, tt := range tests {
		tmpl := templateAfter([]byte(tt.first))
		if got := checkTemplateMatch(t, tmpl, []byte(tt.next)); got != tt.match {
			t.Errorf("%s: matched = %v, want %v\nfirst %s\nnext  %s", tt.reason, got, tt.match, tt.first, tt.next)
		}
	}
}

// FuzzChunkTemplate: whenever a template remembered from one chunk matches
// another, encoding/json decodes the other to the template's chunk.
func FuzzChunkTemplate(f *testing.F) {
	data := fixtureData(f)
	for i := range data {
		f.Add(data[i], data[(i+1)%len(data)])
		f.Add(data[i], data[i])
	}
	f.Add([]byte(argsChunk), []byte(strings.Replace(argsChunk, `"index":1,`, `"index":1.0,`, 1)))
	f.Add([]byte(contentChunk), []byte(strings.Replace(contentChunk, `"Hel"`, `"\ud800"`, 1)))
	f.Fuzz(func(t *testing.T, first, next []byte) {
		tmpl := templateAfter(bytes.TrimSpace(first))
		checkTemplateMatch(t, tmpl, bytes.TrimSpace(next))
	})
}

// TestChunkTemplateTakesTheBenchStream: every piece of arguments of the
// benchmark stream after the first is read through the template, not the
// scanner (so the benchmark measures it).
func TestChunkTemplateTakesTheBenchStream(t *testing.T) {
	stream, _ := benchstream.Chat(64 << 10)
	var m merger
	_, err := sse.Each(bytes.NewReader(stream), func(data []byte, _ bool) (bool, error) {
		if string(data) == "[DONE]" {
			return true, nil
		}
		return false, m.add(data)
	})
	if err != nil {
		t.Fatal(err)
	}
	pieces := bytes.Count(stream, []byte(`"function":{"arguments":`))
	if m.tmpl.hits != pieces-1 {
		t.Fatalf("%d chunks matched the template, want %d (every piece of arguments but the first)", m.tmpl.hits, pieces-1)
	}
}
