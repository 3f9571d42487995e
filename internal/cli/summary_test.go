package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire"
)

// wholeSummary is the summary writeSummary writes, as one value: the
// reference its call-at-a-time writing is compared with.
type wholeSummary struct {
	Text         string            `json:"text"`
	FinishReason string            `json:"finish_reason"`
	ToolTurn     bool              `json:"tool_turn"`
	ToolCalls    []summaryCall     `json:"tool_calls"`
	Warnings     []string          `json:"warnings,omitempty"`
	Thinking     []summaryThinking `json:"thinking,omitempty"`
}

// wholeSummaryLine is the line encoding/json writes for the turn in one go.
func wholeSummaryLine(t *testing.T, turn *agent.Turn) string {
	t.Helper()
	s := wholeSummary{Text: turn.Text, FinishReason: turn.FinishReason, ToolTurn: turn.ToolTurn, ToolCalls: []summaryCall{}, Warnings: turn.Warnings}
	for _, c := range turn.ToolCalls {
		call := summaryCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments, ExtraContent: c.ExtraContent}
		if c.Type == "custom" {
			call.Type = c.Type
		}
		s.ToolCalls = append(s.ToolCalls, call)
	}
	for _, th := range turn.Thinking {
		s.Thinking = append(s.Thinking, summaryThinking(th))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWriteSummaryIsOneEncoding: the summary written a call at a time is
// byte for byte what encoding/json writes for the whole summary, for turns
// with and without each member that is left out when empty, with HTML
// characters and escapes, and for every stream fixture of every format.
func TestWriteSummaryIsOneEncoding(t *testing.T) {
	turns := map[string]*agent.Turn{
		"empty": {},
		"text":  {Text: "a <b> & \"c\"\n\u2028", FinishReason: "stop"},
		"calls": {ToolTurn: true, FinishReason: "tool_calls", ToolCalls: []agent.ToolCall{
			{ID: "call_1", Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: `{"pattern":"<a>"}`}},
			{ID: "call_2", Type: "custom", Function: agent.FunctionCall{Name: "apply_patch", Arguments: ""}},
			{ID: "call_3", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: "{}"}, ExtraContent: json.RawMessage(`{ "google": {"thought_signature": "x"} }`)},
		}},
		"warnings": {Text: "t", Warnings: []string{"one", "two <&>"}},
		"thinking": {Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "why", Signature: "sig"}, {Type: agent.ThinkingRedacted, Data: "d"}}},
		"all": {Text: "x", ToolTurn: true, ToolCalls: []agent.ToolCall{{ID: "a", Function: agent.FunctionCall{Name: "n", Arguments: "{}"}}},
			Warnings: []string{"w"}, Thinking: []agent.Thinking{{Type: agent.ThinkingReasoning, Text: "r"}}},
	}
	for _, f := range wire.All() {
		if f.Carries != nil && f.Framing == nil {
			continue // its streams are the carried format's: their fixtures are that format's
		}
		for _, path := range streamtest.FormatFixtures(t, "../../wire", f) {
			r, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			turn, _ := f.Merge(r)
			r.Close()
			if turn != nil {
				turns[f.Name+"/"+filepath.Base(path)] = turn
			}
		}
	}
	for name, turn := range turns {
		var got bytes.Buffer
		if err := writeSummary(&got, turn, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := wholeSummaryLine(t, turn); got.String() != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got.String(), want)
		}
	}
}

// TestWriteSummaryError: an error prints {"error":"…"} alone.
func TestWriteSummaryError(t *testing.T) {
	var got bytes.Buffer
	if err := writeSummary(&got, &agent.Turn{Text: "lost"}, errors.New("bad <chunk>")); err != nil {
		t.Fatal(err)
	}
	if want := "{\"error\":\"bad <chunk>\"}\n"; got.String() != want {
		t.Fatalf("got %q, want %q", got.String(), want)
	}
}
