package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// FuzzMergeRechunk: any re-chunking of a fixture's bytes (seeded random-size
// reads, including splits inside CRLF and inside UTF-8 sequences) merges to
// the same turn and the same error as reading it whole.
func FuzzMergeRechunk(f *testing.F) { streamtest.FuzzRechunk(f, streamFixtures(f), Merge) }

// FuzzMergeArgumentSplits: any split of the argument text into pieces (at
// rune boundaries, since a server's fragments are strings), interleaved
// across calls in any order and with any starting index, merges to the same
// calls.
func FuzzMergeArgumentSplits(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("\xff\x80\x13\x07\x42 some longer seed that splits differently"))
	f.Fuzz(func(t *testing.T, plan []byte) {
		stream := splitStream(streamtest.FuzzCalls, plan)
		turn, err := Merge(strings.NewReader(stream))
		if err != nil {
			t.Fatalf("%v\nstream:\n%s", err, stream)
		}
		if diff := cmp.Diff(streamtest.FuzzCalls, turn.ToolCalls); diff != "" {
			t.Errorf("calls (-want +got):\n%s\nstream:\n%s", diff, stream)
		}
	})
}

// splitStream writes the calls as a stream driven by plan: plan[0] picks the
// first index (-1, 0, 1 or 2); then each byte picks the call that sends its
// next fragment and that fragment's length in runes (1 to 8). A call's head
// (id, name, "arguments":"") always comes before its fragments.
func splitStream(calls []agent.ToolCall, plan []byte) string {
	next := func() byte {
		if len(plan) == 0 {
			return 0
		}
		b := plan[0]
		plan = plan[1:]
		return b
	}
	base := int(next()%4) - 1
	var b strings.Builder
	emit := func(piece map[string]any) {
		c := map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": []any{piece}}}}}
		data, _ := json.Marshal(c)
		b.WriteString("data: " + string(data) + "\n\n")
	}
	rest := make([]string, len(calls))
	headed := make([]bool, len(calls))
	for i, c := range calls {
		rest[i] = c.Function.Arguments
		if rest[i] == "{}" && i%2 == 1 {
			rest[i] = "" // a zero-argument call: "" becomes {}
		}
	}
	for open := len(calls); open > 0; {
		p := next()
		i := int(p) % len(calls)
		for ; headed[i] && rest[i] == ""; i = (i + 1) % len(calls) {
		}
		index := base + i
		if !headed[i] {
			headed[i] = true
			emit(map[string]any{"index": index, "id": calls[i].ID, "type": "function", "function": map[string]any{"name": calls[i].Function.Name, "arguments": ""}})
		} else {
			n := 1 + int(p>>4)%8
			cut := 0
			for k := 0; k < n && cut < len(rest[i]); k++ {
				_, size := utf8.DecodeRuneInString(rest[i][cut:])
				cut += size
			}
			emit(map[string]any{"index": index, "function": map[string]any{"arguments": rest[i][:cut]}})
			rest[i] = rest[i][cut:]
		}
		if headed[i] && rest[i] == "" {
			open--
		}
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}
