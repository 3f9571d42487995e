package chat

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/agentvcr/agentvcr/wire/internal/sse"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fixtureData returns the data of every event in every stream fixture.
func fixtureData(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	for _, path := range streamFixtures(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sr := sse.NewReader(bytes.NewReader(raw))
		for {
			ev, err := sr.Next()
			if err != nil {
				break
			}
			out = append(out, bytes.Clone(ev.Data))
		}
	}
	return out
}

// decodeBothWays decodes data with the scanner and with encoding/json, each
// into a fresh chunk. The scanner is given h, the head it remembered of the
// chunk before.
func decodeBothWays(data []byte, h *chunkHead) (fast, slow chunk, fastOK bool, slowErr error) {
	fastOK = scanChunk(data, &fast, h)
	var d chunkDecoder
	slowErr = d.decode(data, &slow)
	return fast, slow, fastOK, slowErr
}

// A nil slice and an empty one decode to the same merge; encoding/json makes
// a fresh empty slice for [] where the scanner keeps the reused one.
var chunkCmp = cmpopts.EquateEmpty()

// FuzzChunkScan: on any data the scanner either declines, or accepts data
// that encoding/json accepts too and decodes the same chunk; and a stream
// carrying the data merges to the same turn and the same error whether the
// scanner is used or not.
func FuzzChunkScan(f *testing.F) {
	for _, data := range fixtureData(f) {
		f.Add(data)
	}
	for _, usage := range []string{`{"prompt_tokens":12.0}`, `{"prompt_tokens":"12"}`, `"12"`, `[1]`, `{"Total_Tokens":1,"total_tokens":2}`} {
		f.Add([]byte(`{"choices":[],"usage":` + usage + `}`))
	}
	fixture := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}`)
	f.Add([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{"}}]}}],"object":"x"}`))
	f.Add([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":null,"choices":[]}`))
	f.Add([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices": [],"usage":{"total_tokens":3}}`))
	f.Add([]byte(`{"id":"chatcmpl-1","usage":{"total_tokens":3},"object":null,"choices":[]}`))
	f.Add([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"}}],"error":{"message":"m"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.TrimSpace(data) // as Merge hands it over
		// Scanned once with no head remembered, once after a fixture chunk,
		// and once after itself (its head, when it has one, is then skipped).
		var h chunkHead
		scanChunk(fixture, new(chunk), &h)
		for _, h := range []*chunkHead{nil, &h, &h} {
			fast, slow, fastOK, slowErr := decodeBothWays(data, h)
			if fastOK {
				if slowErr != nil {
					t.Fatalf("scanner accepted %q, encoding/json says %v", data, slowErr)
				}
				if diff := cmp.Diff(slow, fast, chunkCmp); diff != "" {
					t.Fatalf("chunk differs for %q (-json +scanner):\n%s", data, diff)
				}
			}
		}
		line := bytes.Clone(data) // one data line: line ends become spaces
		for i, c := range line {
			if c == '\r' || c == '\n' {
				line[i] = ' '
			}
		}
		// The data twice: the second time the merger skips its head.
		stream := append(append([]byte("data: "), line...), "\n\ndata: "...)
		stream = append(append(stream, line...), "\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"!\"}}]}\n\n"...)
		wantTurn, wantErr := merge(bytes.NewReader(stream), true)
		gotTurn, gotErr := merge(bytes.NewReader(stream), false)
		if diff := cmp.Diff(wantTurn, gotTurn); diff != "" {
			t.Errorf("turn differs for %q (-json +scanner):\n%s", stream, diff)
		}
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Errorf("error = %v, encoding/json path gave %v", gotErr, wantErr)
		}
	})
}
