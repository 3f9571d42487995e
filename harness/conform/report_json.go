package conform

import (
	"encoding/json"
	"io"
	"strings"
)

// A Check is one case in the JSON report, shaped like the checks of MCP's
// conformance suite. API, Agent, Cassette and Shard say which run it is of
// (RunInfo), so that `agentvcr report merge` joins only one run's shards.
type Check struct {
	ID            string `json:"id"`
	Tier          Tier   `json:"tier"`
	Status        Status `json:"status"`
	Expected      bool   `json:"expected_failure,omitempty"`
	Vacuous       bool   `json:"vacuous,omitempty"`
	OtherProvider string `json:"other_provider,omitempty"`
	Description   string `json:"description"`
	Source        string `json:"source"`
	File          string `json:"file,omitempty"`
	Details       string `json:"details"`
	Diff          string `json:"diff,omitempty"`
	ExitCode      int    `json:"exit_code"`
	TimedOut      bool   `json:"timed_out,omitempty"`
	Requests      int    `json:"requests"`
	DurationMS    int64  `json:"duration_ms"`
	API           string `json:"api,omitempty"`
	Agent         string `json:"agent,omitempty"`
	Cassette      string `json:"cassette,omitempty"`
	Shard         string `json:"shard,omitempty"`
}

// RunInfo names the run a report is of: the format (-api), the agent's
// command line, recorded mode's cassette and the shard (-shard I/N).
type RunInfo struct {
	API, Agent, Cassette, Shard string
}

// AgentName is the agent's command line as a report names it: its
// arguments joined by spaces, every control character escaped as visible
// escapes it (a tab as \t), so that the name is one line of text a report
// reader accepts (checkReport) whatever the arguments hold.
func AgentName(args []string) string {
	return strings.ReplaceAll(visible(strings.Join(args, " ")), "\t", `\t`)
}

// WriteJSON writes the report as a JSON array of checks, one per case,
// without RunInfo.
func WriteJSON(w io.Writer, results []Result) error {
	return WriteRunJSON(w, RunInfo{}, results)
}

// WriteRunJSON writes the report as a JSON array of checks, one per case,
// each naming the run.
func WriteRunJSON(w io.Writer, run RunInfo, results []Result) error {
	checks := make([]Check, len(results))
	for i, r := range results {
		checks[i] = Check{ID: r.Case.ID, Tier: r.Case.Tier, Status: r.Status, Expected: r.Expected, Vacuous: r.Vacuous, OtherProvider: r.OtherProvider,
			Description: r.Case.Doc, Source: r.Case.Source, File: r.Case.File, Details: r.Details, Diff: r.Diff,
			ExitCode: r.ExitCode, TimedOut: r.TimedOut, Requests: len(r.Requests), DurationMS: r.Duration.Milliseconds(),
			API: run.API, Agent: run.Agent, Cassette: run.Cassette, Shard: run.Shard}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(checks)
}

// run returns the RunInfo a check names.
func (c Check) run() RunInfo {
	return RunInfo{API: c.API, Agent: c.Agent, Cassette: c.Cassette, Shard: c.Shard}
}
