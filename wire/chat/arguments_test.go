package chat

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestJoinName(t *testing.T) {
	tests := []struct{ sofar, piece, want string }{
		{"", "read_", "read_"},
		{"read_", "file", "read_file"},          // a name in pieces
		{"read_file", "read_file", "read_file"}, // the whole name on every piece
		{"read_file", "", "read_file"},          // "" never clobbers
		{"read_", "read_", "read_"},             // a repeat of the name so far adds nothing
		{"gr", "ep", "grep"},
	}
	for _, tt := range tests {
		if got := joinName(tt.sofar, tt.piece); got != tt.want {
			t.Errorf("joinName(%q, %q) = %q, want %q", tt.sofar, tt.piece, got, tt.want)
		}
	}
}

// argPieces streams one grep call whose arguments come in the pieces given.
func argPieces(pieces ...string) []string {
	arrays := []string{`[{"index":0,"id":"g","type":"function","function":{"name":"grep","arguments":""}}]`}
	for _, p := range pieces {
		arrays = append(arrays, `[{"index":0,"function":{"arguments":`+quoteJSON(p)+`}}]`)
	}
	return arrays
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestCumulativeArguments(t *testing.T) {
	tests := []struct {
		reason string
		pieces []string
		want   string
	}{
		{"deltas", []string{`{"pattern"`, `:"a"}`}, `{"pattern":"a"}`},
		{"every piece carries everything so far", []string{`{"pat`, `{"pattern":`, `{"pattern":"a"}`}, `{"pattern":"a"}`},
		{"the same snapshot twice", []string{`{"pattern":"a"}`, `{"pattern":"a"}`}, `{"pattern":"a"}`},
		{"deltas, then the whole again", []string{`{"pattern"`, `:"a",`, `"glob":"*"}`, `{"pattern":"a","glob":"*"}`}, `{"pattern":"a","glob":"*"}`},
		{"trap: a delta that begins with the text so far is a delta", []string{`{"w":`, `{"w":{"pattern":"a"}}}`}, `{"w":{"w":{"pattern":"a"}}}`},
		{"trap inside deltas that are then sent whole again", []string{`{"w":`, `{"w":1}}`, `{"w":{"w":1}}`}, `{"w":{"w":1}}`},
		{"trap in a cumulative stream: each snapshot nests the one before", []string{`{"w":`, `{"w":{"w":`, `{"w":{"w":1}}`}, `{"w":{"w":1}}`},
		{"invalid either way is kept as sent", []string{`{"pattern":`, `{"x"`}, `{"pattern":{"x"`},
		{"a last piece that is valid alone but carries nothing before it is not a snapshot", []string{`{"a":1,`, `{"b":2}`}, `{"a":1,{"b":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			turn, err := Merge(strings.NewReader(toolStream(argPieces(tt.pieces...)...)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]agent.ToolCall{streamtest.Call("g", "grep", tt.want)}, turn.ToolCalls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNameInPieces(t *testing.T) {
	tests := []struct {
		reason string
		arrays []string
		want   []agent.ToolCall
	}{
		{
			reason: "split name at an index, id on the head only",
			arrays: []string{`[{"index":0,"id":"a","function":{"name":"read_"}}]`, `[{"index":0,"function":{"name":"file","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("a", "read_file", "{}")},
		},
		{
			reason: "split name with the id on every piece",
			arrays: []string{`[{"index":0,"id":"a","function":{"name":"read_"}}]`, `[{"index":0,"id":"a","function":{"name":"file","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("a", "read_file", "{}")},
		},
		{
			reason: "the whole name on every piece, with the id",
			arrays: []string{`[{"index":0,"id":"a","function":{"name":"glob","arguments":"{\"p"}}]`, `[{"index":0,"id":"a","function":{"name":"glob","arguments":"\":1}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("a", "glob", `{"p":1}`)},
		},
		{
			reason: "no index: another name after arguments is the next call",
			arrays: []string{`[{"function":{"name":"gl"}}]`, `[{"function":{"name":"ob","arguments":"{}"}}]`, `[{"function":{"name":"grep","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("call_0_0", "glob", "{}"), streamtest.Call("call_1_1", "grep", "{}")},
		},
		{
			reason: "all calls at index 0, each with its own id and a split name",
			arrays: []string{`[{"index":0,"id":"a","function":{"name":"gl"}}]`, `[{"index":0,"function":{"name":"ob","arguments":"{}"}}]`, `[{"index":0,"id":"b","function":{"name":"gr"}}]`, `[{"index":0,"function":{"name":"ep","arguments":"{}"}}]`},
			want:   []agent.ToolCall{streamtest.Call("a", "glob", "{}"), streamtest.Call("b", "grep", "{}")},
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

func TestFinishLengthCutsACall(t *testing.T) {
	head := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]}}]}` + "\n\n"
	cut := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}` + "\n\n"
	length := `data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}` + "\n\n"
	t.Run("a cut call is an error naming the limit", func(t *testing.T) {
		for _, tail := range []string{"data: [DONE]\n\n", ""} {
			turn, err := Merge(strings.NewReader(head + cut + length + tail))
			var le *agent.OutputLimitError
			if !errors.Is(err, agent.ErrOutputLimit) || !errors.As(err, &le) {
				t.Fatalf("err = %v, want an output limit error", err)
			}
			want := `the output token limit (finish_reason "length") cut tool call "read_file" (b) before its arguments were complete; it is not run`
			if err.Error() != want {
				t.Errorf("err = %q, want %q", err, want)
			}
			if len(turn.ToolCalls) != 2 {
				t.Errorf("the turn so far has %d calls, want both (for display)", len(turn.ToolCalls))
			}
		}
	})
	t.Run("whole calls under length are a turn", func(t *testing.T) {
		turn, err := Merge(strings.NewReader(head + length + "data: [DONE]\n\n"))
		if err != nil {
			t.Fatal(err)
		}
		if turn.FinishReason != "length" || len(turn.ToolCalls) != 1 {
			t.Errorf("turn = %+v", turn)
		}
	})
	t.Run("a cut call under tool_calls is left to the tool entry", func(t *testing.T) {
		_, err := Merge(strings.NewReader(head + cut + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n"))
		if err != nil {
			t.Fatal(err)
		}
	})
}
