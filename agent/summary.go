package agent

import (
	"encoding/json"
	"io"
)

// Summary is the one-line JSON view of a merged turn that `agentvcr merge`
// prints: {"text","finish_reason","tool_turn","tool_calls":[{"id","name","arguments"}],"warnings":[..]}
// ("warnings" only when the merger reported any).
type Summary struct {
	Text         string        `json:"text"`
	FinishReason string        `json:"finish_reason"`
	ToolTurn     bool          `json:"tool_turn"`
	ToolCalls    []SummaryCall `json:"tool_calls"`         // [] when none
	Warnings     []string      `json:"warnings,omitempty"` // left out when none
}

// SummaryCall is one call in a Summary.
type SummaryCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Summary returns the turn's merge view.
func (t *Turn) Summary() Summary {
	s := Summary{Text: t.Text, FinishReason: t.FinishReason, ToolTurn: t.ToolTurn, ToolCalls: []SummaryCall{}, Warnings: t.Warnings}
	for _, c := range t.ToolCalls {
		s.ToolCalls = append(s.ToolCalls, SummaryCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return s
}

// WriteSummary writes the merge command's output line: the turn's Summary,
// or {"error":"…"} when err is not nil. HTML characters are not escaped.
func WriteSummary(w io.Writer, t *Turn, err error) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err != nil {
		return enc.Encode(struct {
			Error string `json:"error"`
		}{err.Error()})
	}
	return enc.Encode(t.Summary())
}
