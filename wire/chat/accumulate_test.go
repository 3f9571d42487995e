package chat

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// toolStream makes a stream with one chunk per tool_calls array given, then a
// tool_calls finish.
func toolStream(arrays ...string) string {
	var b strings.Builder
	for _, a := range arrays {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":` + a + `}}]}` + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

func TestAccumulatorIdentity(t *testing.T) {
	tests := []struct {
		reason string
		arrays []string
		want   []agent.ToolCall
	}{
		{
			reason: "pieces that carry nothing open nothing; [] and null tool_calls are skipped",
			arrays: []string{`[]`, `null`, `[{"index":0}]`, `[{"index":3,"function":{"name":null,"arguments":null}}]`, `[{"index":1,"id":"c1","function":{"name":"glob","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("c1", "glob", "{}")},
		},
		{
			reason: "a synthesized id never takes a real id",
			arrays: []string{`[{"index":0,"function":{"name":"glob","arguments":"{}"}}]`, `[{"index":1,"id":"call_0_0","function":{"name":"grep","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("call_0_0_2", "glob", "{}"), streamtest.Call("call_0_0", "grep", "{}")},
		},
		{
			reason: "calls without an index sort by first-seen position among indexed ones",
			arrays: []string{`[{"index":5,"id":"a","function":{"name":"glob","arguments":"{}"}}]`, `[{"id":"b","function":{"name":"grep","arguments":"{}"}}]`, `[{"index":0,"id":"c","function":{"name":"read_file","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("c", "read_file", "{}"), streamtest.Call("b", "grep", "{}"), streamtest.Call("a", "glob", "{}")},
		},
		{
			reason: "without an index or id, a different name opens a new call (gemini with empty ids)",
			arrays: []string{`[{"id":"","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]`, `[{"id":"","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("call_0_0", "glob", `{"pattern":"*"}`), streamtest.Call("call_1_1", "read_file", `{"path":"a"}`)},
		},
		{
			reason: "without an index, a repeated name continues the latest call",
			arrays: []string{`[{"id":"x","function":{"name":"glob","arguments":"{\"pat"}}]`, `[{"function":{"name":"glob","arguments":"tern\":\"*\"}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("x", "glob", `{"pattern":"*"}`)},
		},
		{
			reason: "a new id with a different name at a used index opens a new call even when the first had no id",
			arrays: []string{`[{"index":0,"function":{"name":"glob","arguments":"{}"}}]`, `[{"index":0,"id":"g","function":{"name":"grep","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("call_0_0", "glob", "{}"), streamtest.Call("g", "grep", "{}")},
		},
		{
			reason: "a head that adds the id to an id-less call at its index joins it",
			arrays: []string{`[{"index":0,"function":{"arguments":"{\"a\":1}"}}]`, `[{"index":0,"id":"late","function":{"name":"glob"}}]`},
			want:   []agent.ToolCall{streamtest.Call("late", "glob", `{"a":1}`)},
		},
		{
			reason: "an index given as a string or as 1.0 is an index",
			arrays: []string{`[{"index":"1","id":"b","function":{"name":"grep","arguments":"{}"}}]`, `[{"index":0.0,"id":"a","function":{"name":"glob","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("a", "glob", "{}"), streamtest.Call("b", "grep", "{}")},
		},
		{
			reason: "whitespace-only arguments become {}",
			arrays: []string{`[{"index":0,"id":"w","function":{"name":"glob","arguments":" \n"}}]`},
			want:   []agent.ToolCall{streamtest.Call("w", "glob", "{}")},
		},
		{
			reason: "invalid JSON arguments are kept as sent, for the tool entry to report",
			arrays: []string{`[{"index":0,"id":"bad","function":{"name":"glob","arguments":"{\"pattern\":"}}]`},
			want:   []agent.ToolCall{streamtest.Call("bad", "glob", `{"pattern":`)},
		},
		{
			reason: "an object replaces the text, and later strings append to it",
			arrays: []string{`[{"index":0,"id":"o","function":{"name":"glob","arguments":"{\"x\""}}]`, `[{"index":0,"function":{"arguments":{ "pattern" : "*" }}}]`},
			want:   []agent.ToolCall{streamtest.Call("o", "glob", `{"pattern":"*"}`)},
		},
		{
			reason: "surrogate pairs and lone surrogates decode as encoding/json does",
			arrays: []string{`[{"index":0,"id":"s","function":{"name":"grep","arguments":"{\"q\":\"\ud83d\ude00 \ud83d \/\"}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("s", "grep", "{\"q\":\"😀 \uFFFD /\"}")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			turn, err := Merge(strings.NewReader(toolStream(tt.arrays...)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, turn.ToolCalls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeStreamTextAlongsideCalls(t *testing.T) {
	in := `data: {"choices":[{"index":0,"delta":{"content":"","tool_calls":[{"index":0,"id":"a","function":{"name":"glob","arguments":"{}"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{"content":"tab\tand \u00e9 \"q\""}},{"index":0,"delta":{"content":" two"},"finish_reason":"tool_calls"}]}` + "\n\n"
	turn, err := Merge(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &agent.Turn{Text: "tab\tand é \"q\" two", FinishReason: "tool_calls", ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("a", "glob", "{}")}}
	if diff := cmp.Diff(want, turn); diff != "" {
		t.Errorf("turn (-want +got):\n%s", diff)
	}
}
