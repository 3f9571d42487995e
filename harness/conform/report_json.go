package conform

import (
	"encoding/json"
	"io"
)

// A Check is one case in the JSON report, shaped like the checks of MCP's
// conformance suite.
type Check struct {
	ID          string `json:"id"`
	Tier        Tier   `json:"tier"`
	Status      Status `json:"status"`
	Expected    bool   `json:"expected_failure,omitempty"`
	Description string `json:"description"`
	Source      string `json:"source"`
	Details     string `json:"details"`
	Diff        string `json:"diff,omitempty"`
	ExitCode    int    `json:"exit_code"`
	TimedOut    bool   `json:"timed_out,omitempty"`
	Requests    int    `json:"requests"`
	DurationMS  int64  `json:"duration_ms"`
}

// WriteJSON writes the report as a JSON array of checks, one per case.
func WriteJSON(w io.Writer, results []Result) error {
	checks := make([]Check, len(results))
	for i, r := range results {
		checks[i] = Check{ID: r.Case.ID, Tier: r.Case.Tier, Status: r.Status, Expected: r.Expected,
			Description: r.Case.Doc, Source: r.Case.Source, Details: r.Details, Diff: r.Diff,
			ExitCode: r.ExitCode, TimedOut: r.TimedOut, Requests: len(r.Requests), DurationMS: r.Duration.Milliseconds()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(checks)
}
