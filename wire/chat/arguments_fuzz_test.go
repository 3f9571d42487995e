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

// FuzzMergeNamesAndCumulativeArguments: the calls streamed with their names
// in pieces or whole on every piece, and their arguments as deltas, as
// cumulative snapshots, or as deltas then the whole again, with or without
// indexes, merge to the same calls: no panic, no lost call.
func FuzzMergeNamesAndCumulativeArguments(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 3, 5, 7, 9, 11})
	f.Add([]byte{2, 0xff, 0x10, 0x21, 0x32})
	f.Add([]byte{9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Add([]byte("\x05\x80\x13\x07\x42 a longer plan for longer pieces"))
	f.Fuzz(func(t *testing.T, plan []byte) {
		stream := shapedStream(streamtest.FuzzCalls, plan)
		turn, err := Merge(strings.NewReader(stream))
		if err != nil {
			t.Fatalf("%v\nstream:\n%s", err, stream)
		}
		if diff := cmp.Diff(streamtest.FuzzCalls, turn.ToolCalls); diff != "" {
			t.Errorf("calls (-want +got):\n%s\nstream:\n%s", diff, stream)
		}
	})
}

// Argument shapes shapedStream writes.
const (
	argsDeltas     = iota // each piece adds to the text
	argsCumulative        // each piece carries everything so far
	argsRepeated          // deltas, then the whole text again
)

// shapedStream writes the calls one after the other as plan says: plan[0]
// picks the argument shape (mod 3), whether names come in pieces before the
// arguments or whole on every piece (/3 mod 2), and whether pieces carry an
// index (/6 mod 2); each later byte cuts the next piece (1 to 8 runes).
func shapedStream(calls []agent.ToolCall, plan []byte) string {
	next := func() byte {
		if len(plan) == 0 {
			return 3
		}
		b := plan[0]
		plan = plan[1:]
		return b
	}
	mode := next()
	shape, wholeName, indexed := int(mode%3), (mode/3)%2 == 1, (mode/6)%2 == 0
	var b strings.Builder
	emit := func(i int, piece map[string]any) {
		if indexed {
			piece["index"] = i
		}
		c := map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": []any{piece}}}}}
		data, _ := json.Marshal(c)
		b.WriteString("data: " + string(data) + "\n\n")
	}
	cut := func(s string) (string, string) {
		n, at := 1+int(next()>>4)%8, 0
		for k := 0; k < n && at < len(s); k++ {
			_, size := utf8.DecodeRuneInString(s[at:])
			at += size
		}
		return s[:at], s[at:]
	}
	for i, c := range calls {
		name := c.Function.Name
		if wholeName {
			emit(i, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": name}})
		} else {
			first, rest := cut(name)
			emit(i, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": first}})
			for rest != "" {
				var p string
				p, rest = cut(rest)
				emit(i, map[string]any{"function": map[string]any{"name": p}})
			}
		}
		fn := func(args string) map[string]any {
			if wholeName {
				return map[string]any{"name": name, "arguments": args}
			}
			return map[string]any{"arguments": args}
		}
		sofar := ""
		for rest := c.Function.Arguments; rest != ""; {
			var p string
			p, rest = cut(rest)
			sofar += p
			if shape == argsCumulative {
				p = sofar
			}
			emit(i, map[string]any{"function": fn(p)})
		}
		if shape == argsRepeated {
			emit(i, map[string]any{"function": fn(sofar)})
		}
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}
