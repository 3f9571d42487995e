package cli

import (
	"encoding/json"
	"io"

	"github.com/agentvcr/agentvcr/agent"
)

// summary is the one-line JSON view of a merged turn that `agentvcr merge`
// prints: {"text","finish_reason","tool_turn","tool_calls":[{"id","name","arguments"}]}.
// Members that only some turns have come last and only when not empty:
// "warnings" (shapes the merger worked around) and then "thinking" (the
// reasoning blocks, [{"type","text","signature","data"}], empty members left
// out) after "tool_calls", and a call's "extra_content" after its
// "arguments"; so a turn without them prints exactly as it always did.
type summary struct {
	Text         string            `json:"text"`
	FinishReason string            `json:"finish_reason"`
	ToolTurn     bool              `json:"tool_turn"`
	ToolCalls    []summaryCall     `json:"tool_calls"`         // [] when none
	Warnings     []string          `json:"warnings,omitempty"` // left out when none
	Thinking     []summaryThinking `json:"thinking,omitempty"` // left out when none
}

// summaryThinking is one reasoning block in a summary.
type summaryThinking struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// summaryCall is one call in a summary.
type summaryCall struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Arguments    string          `json:"arguments"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
	// Type is "custom" for a custom tool's call (freeform input), left out
	// for a function call.
	Type string `json:"type,omitempty"`
}

// summarize returns the turn's merge view.
func summarize(t *agent.Turn) summary {
	s := summary{Text: t.Text, FinishReason: t.FinishReason, ToolTurn: t.ToolTurn, ToolCalls: []summaryCall{}, Warnings: t.Warnings}
	for _, c := range t.ToolCalls {
		call := summaryCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments, ExtraContent: c.ExtraContent}
		if c.Type == "custom" {
			call.Type = c.Type
		}
		s.ToolCalls = append(s.ToolCalls, call)
	}
	for _, th := range t.Thinking {
		s.Thinking = append(s.Thinking, summaryThinking(th))
	}
	return s
}

// writeSummary writes the merge command's output line: the turn's summary,
// or {"error":"…"} when err is not nil. HTML characters are not escaped.
func writeSummary(w io.Writer, t *agent.Turn, err error) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err != nil {
		return enc.Encode(struct {
			Error string `json:"error"`
		}{err.Error()})
	}
	return enc.Encode(summarize(t))
}
