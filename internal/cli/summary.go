package cli

import (
	"encoding/json"
	"io"

	"github.com/agentvcr/agentvcr/agent"
)

// summary is the one-line JSON view of a merged turn that `agentvcr merge`
// prints: {"text","finish_reason","tool_turn","tool_calls":[{"id","name","arguments"}],"warnings":[..]}
// ("warnings" only when the merger reported any).
type summary struct {
	Text         string        `json:"text"`
	FinishReason string        `json:"finish_reason"`
	ToolTurn     bool          `json:"tool_turn"`
	ToolCalls    []summaryCall `json:"tool_calls"`         // [] when none
	Warnings     []string      `json:"warnings,omitempty"` // left out when none
}

// summaryCall is one call in a summary.
type summaryCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// summarize returns the turn's merge view.
func summarize(t *agent.Turn) summary {
	s := summary{Text: t.Text, FinishReason: t.FinishReason, ToolTurn: t.ToolTurn, ToolCalls: []summaryCall{}, Warnings: t.Warnings}
	for _, c := range t.ToolCalls {
		s.ToolCalls = append(s.ToolCalls, summaryCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
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
