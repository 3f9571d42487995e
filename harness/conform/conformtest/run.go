package conformtest

import (
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/wire"
)

// Options configure Run.
type Options struct {
	// Agent is the agent under test, called in the test's process once per
	// case (conform.AgentFunc: it must return when its context is done).
	Agent conform.AgentFunc
	// Command is started once per case instead when Agent is nil.
	Command conform.Command
	// API names the wire format, as conform's -api does (wire.All's
	// names; "" is chat completions).
	API string
	// Cases are the ids of the cases to run, as conform's -case (none: the
	// format's whole catalog).
	Cases []string
	// CaseDirs are folders of case files, as conform's -cases: those of
	// the format run beside the catalog (conform.ReadCaseFiles).
	CaseDirs []string
	// Calls are conform's -call specs, NAME[=ARGS_JSON]: the tools the
	// probe calls (none: the first two whose names say they only read).
	Calls []string
	// Baseline is the path of a baseline file, as conform's -baseline: the
	// cases the agent is known to fail ("": none).
	Baseline string
	// Parallel, Timeout and StallTimeout are conform.Options' (zero: its
	// defaults, 4 cases at once, 30 s, 6 minutes).
	Parallel              int
	Timeout, StallTimeout time.Duration
}

// Run runs the format's catalog against the agent, then reports each case
// as a subtest of t named by its id: a failure is an error carrying the
// verdict's details and its diff, a WARNING is logged, a case conform
// skipped is skipped, a failure the baseline lists is skipped with the
// baseline's reason, and a baseline entry whose case passes is an error
// (the baseline only ever shrinks). Options that conform would refuse (an
// unknown format, case or call, an unreadable baseline), and an agent the
// probe cannot work with, end the test at once.
func Run(t *testing.T, opt Options) {
	t.Helper()
	if opt.API == "" {
		opt.API = wire.Default().Name
	}
	format, err := conform.FormatByName(opt.API)
	if err != nil {
		t.Fatal(err)
	}
	all := format.Cases()
	if len(opt.CaseDirs) > 0 {
		own, _, err := conform.ReadCaseFiles(format, all, opt.CaseDirs)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, own...)
	}
	cases, err := conform.SelectCases(all, opt.Cases)
	if err != nil {
		t.Fatal(err)
	}
	var calls []conform.CallSpec
	for _, c := range opt.Calls {
		spec, err := conform.ParseCallSpec(c)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, spec)
	}
	baseline := baseline{}
	if opt.Baseline != "" {
		if baseline, err = readBaseline(opt.Baseline, all); err != nil {
			t.Fatal(err)
		}
	}
	results, err := conform.Run(t.Context(), conform.Options{Command: opt.Command, Agent: opt.Agent, Format: format, Cases: cases, Calls: calls,
		Parallel: opt.Parallel, Timeout: opt.Timeout, StallTimeout: opt.StallTimeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		t.Run(r.Case.ID, func(t *testing.T) {
			report(t, r, baseline, opt.Baseline)
		})
	}
}

// report turns one case's verdict into its subtest's outcome.
func report(t *testing.T, r conform.Result, b baseline, path string) {
	reason, listed := b[r.Case.ID]
	switch {
	case r.Status == conform.Failure && listed:
		t.Skipf("expected failure, in the baseline %s (%s): %s", path, reason, r.Details)
	case r.Status == conform.Failure:
		msg := r.Case.Doc + ": " + r.Details
		if r.Diff != "" {
			msg += "\n" + r.Diff
		}
		t.Error(msg)
	case r.Status == conform.Skipped:
		t.Skip(r.Details)
	case listed:
		t.Errorf("the baseline %s lists %s (%s), and it now passes: remove it (%s: %s)", path, r.Case.ID, reason, r.Status, r.Details)
	case r.Status == conform.Warning:
		t.Log("WARNING: " + r.Details)
	default:
		t.Log(r.Details)
	}
}
