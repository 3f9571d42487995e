package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// ErrBadMerge is returned for reports MergeReports will not join.
var ErrBadMerge = errors.New("cannot merge the reports")

// A Report is one JSON report (conform -json) as read, and the name it
// was read from, for errors.
type Report struct {
	Name   string
	Checks []Check
}

// ReadReport reads a JSON report written by conform -json: one JSON
// array of at least one check, each field in its range (checkReport).
func ReadReport(name string, data []byte) (Report, error) {
	var checks []Check
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&checks); err != nil {
		return Report{}, fmt.Errorf("%w: %s: %w: give the file agentvcr conform -json wrote", ErrBadMerge, name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Report{}, fmt.Errorf("%w %s: more follows the JSON array: give the file agentvcr conform -json wrote", ErrBadReport, name)
	}
	if err := checkReport(name, checks); err != nil {
		return Report{}, err
	}
	return Report{Name: name, Checks: checks}, nil
}

// MergeReports joins the reports of one run's shards (or of runs of one
// agent on disjoint cases) into one list of results in the catalog's order,
// and returns the run they are of with no shard. It refuses a report that
// names no run (written by WriteJSON, or by an older agentvcr), reports of
// different formats, agents or cassettes, a case reported twice, a case the
// catalog does not have, sharded reports mixed with others, and a missing
// or repeated shard. The baseline marks the reports carry (each shard's
// own -baseline) are cleared: judge the result once, with Baseline.Judge.
func MergeReports(reports []Report) (RunInfo, []Result, error) {
	fail := func(format string, a ...any) (RunInfo, []Result, error) {
		return RunInfo{}, nil, fmt.Errorf("%w: "+format, append([]any{ErrBadMerge}, a...)...)
	}
	if len(reports) == 0 {
		return fail("no reports: name the JSON reports of every shard")
	}
	var run RunInfo
	var first string            // the report run came from
	shards := map[int]string{}  // shard index: report
	count := 0                  // shards in the run (0: unsharded)
	from := map[string]string{} // case id: report
	var checks []Check
	for _, r := range reports {
		if len(r.Checks) == 0 {
			return fail("%s reports no case: a shard's report always has one (conform -shard refuses more shards than cases)", r.Name)
		}
		this := r.Checks[0].run()
		for _, c := range r.Checks {
			if c.run() != this {
				return fail("%s mixes the checks of two runs (%+v and %+v)", r.Name, this, c.run())
			}
		}
		if this.API == "" {
			return fail("%s names no run (no \"api\" in its checks): write it with agentvcr conform -json of this version", r.Name)
		}
		if first == "" {
			run, first = this, r.Name
		}
		switch {
		case this.API != run.API:
			return fail("%s is a report of -api %s, %s of -api %s: merge the reports of one run", r.Name, this.API, first, run.API)
		case this.Agent != run.Agent:
			return fail("%s is a report of the agent %q, %s of %q: merge the reports of one run", r.Name, this.Agent, first, run.Agent)
		case this.Cassette != run.Cassette:
			return fail("%s replays the cassette %q, %s %q: merge the reports of one run", r.Name, this.Cassette, first, run.Cassette)
		}
		if err := shardOf(r.Name, this.Shard, shards, &count); err != nil {
			return RunInfo{}, nil, err
		}
		for _, c := range r.Checks {
			if other, ok := from[c.ID]; ok {
				return fail("the case %s is in both %s and %s: give each shard's report once", c.ID, other, r.Name)
			}
			from[c.ID] = r.Name
			checks = append(checks, c)
		}
	}
	for i := 1; i <= count; i++ {
		if shards[i] == "" {
			return fail("no report of shard %d/%d: give the report of every shard", i, count)
		}
	}
	merged := Report{Name: first, Checks: checks}
	_, results, err := merged.results(run, from)
	if err != nil {
		return RunInfo{}, nil, err
	}
	for i := range results {
		results[i].Expected = false // each shard's own -baseline: judged again, once
	}
	run.Shard = ""
	return run, results, nil
}

// Results returns the report's run and its checks as results, in the
// catalog's order, for WriteMarkdown and the other writers: one shard's
// report as it is, with no other shard's checks.
func (r Report) Results() (RunInfo, []Result, error) {
	if len(r.Checks) == 0 {
		return RunInfo{}, nil, nil
	}
	run := r.Checks[0].run()
	from := map[string]string{}
	for _, c := range r.Checks {
		if c.run() != run {
			return RunInfo{}, nil, fmt.Errorf("%w: %s mixes the checks of two runs (%+v and %+v)", ErrBadMerge, r.Name, run, c.run())
		}
		if from[c.ID] != "" {
			return RunInfo{}, nil, fmt.Errorf("%w: %s reports the case %s twice", ErrBadMerge, r.Name, c.ID)
		}
		from[c.ID] = r.Name
	}
	if run.API == "" {
		return RunInfo{}, nil, fmt.Errorf("%w: %s names no run (no \"api\" in its checks): write it with agentvcr conform -json of this version", ErrBadMerge, r.Name)
	}
	return r.results(run, from)
}

// results converts the checks, which from names the report of, into
// results in the order of run's catalog, the cases it does not list last.
func (r Report) results(run RunInfo, from map[string]string) (RunInfo, []Result, error) {
	format, err := FormatByName(run.API)
	if err != nil {
		return RunInfo{}, nil, fmt.Errorf("%w: %s: %w", ErrBadMerge, r.Name, err)
	}
	catalog := format.Cases()
	if run.Cassette != "" {
		catalog = RecordedCases(format)
	}
	// the catalog's cases in its order, then the cases it does not list (a
	// composition, a case file's) in the report's order, as conform ran them
	var cases []Case
	for _, c := range catalog {
		if slices.ContainsFunc(r.Checks, func(ch Check) bool { return ch.ID == c.ID }) {
			cases = append(cases, c)
		}
	}
	for _, ch := range r.Checks {
		if slices.ContainsFunc(cases, func(c Case) bool { return c.ID == ch.ID }) {
			continue
		}
		c, ok := reportedCase(catalog, ch)
		if !ok {
			return RunInfo{}, nil, fmt.Errorf("%w: %s reports the case %s, which this agentvcr's -api %s catalog does not have: use the agentvcr that ran conform", ErrBadMerge, from[ch.ID], ch.ID, run.API)
		}
		c.ID, c.Doc, c.Source, c.File = ch.ID, ch.Description, ch.Source, ch.File
		cases = append(cases, c)
	}
	results := make([]Result, 0, len(r.Checks))
	for _, c := range cases {
		ch := r.Checks[slices.IndexFunc(r.Checks, func(ch Check) bool { return ch.ID == c.ID })]
		results = append(results, Result{Case: c, Status: ch.Status, Expected: ch.Expected, Vacuous: ch.Vacuous, Details: ch.Details, Diff: ch.Diff,
			OtherProvider: ch.OtherProvider, ExitCode: ch.ExitCode, TimedOut: ch.TimedOut,
			Duration: time.Duration(ch.DurationMS) * time.Millisecond, Requests: make([][]byte, ch.Requests)})
	}
	return run, results, nil
}

// shardOf checks one report's shard against the others'.
func shardOf(name, shard string, seen map[int]string, count *int) error {
	if shard == "" {
		if *count > 0 {
			return fmt.Errorf("%w: %s is no shard's report, the others are: merge the reports of one sharded run", ErrBadMerge, name)
		}
		*count = -1
		return nil
	}
	s, err := ParseShard(shard)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBadMerge, name, err)
	}
	switch {
	case *count == -1:
		return fmt.Errorf("%w: %s is the report of shard %s, the others of no shard: merge the reports of one sharded run", ErrBadMerge, name, s)
	case *count > 0 && s.Count != *count:
		return fmt.Errorf("%w: %s is the report of shard %s, the others of %d shards: merge the reports of one run", ErrBadMerge, name, s, *count)
	case seen[s.Index] != "":
		return fmt.Errorf("%w: %s and %s are both the report of shard %s: give each shard's report once", ErrBadMerge, seen[s.Index], name, s)
	}
	*count = s.Count
	seen[s.Index] = name
	return nil
}
