package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// verdicts is what a merge must keep of a run: each case's id, status,
// baseline mark and details (but a fault case's, which carry timings).
type verdictRow struct {
	ID       string
	Status   Status
	Expected bool
	Details  string
}

func verdicts(results []Result) []verdictRow {
	var out []verdictRow
	for _, r := range results {
		v := verdictRow{ID: r.Case.ID, Status: r.Status, Expected: r.Expected, Details: r.Details}
		if r.Case.Tier == TierFault {
			v.Details = ""
		}
		out = append(out, v)
	}
	return out
}

// A 3-way shard of a run, written as JSON, read back and merged, judged by
// one baseline, gives the verdicts of the run unsharded. The agent answers
// every call twice, so clean fails: the other cases' details say so only
// when the probe ran in their shard too. The agent runs in process: what
// is tested is the split and the merge, not how a process is run (the
// command's own test, cmd/agentvcr's TestConformShardsMergeLikeOneRun,
// shards a real one).
func TestShardedRunMergesToTheUnshardedVerdicts(t *testing.T) {
	t.Parallel()
	opt := Options{Folder: agentFolder, Agent: testAgentFunc(agentTwice), Parallel: 8 / slow, Timeout: slow * 10 * time.Second, StallTimeout: slow * 10 * time.Second}
	run := RunInfo{API: "chat", Agent: "twice"}
	baseline, err := ParseBaseline("b", []byte("clean\nindex_plus_1\ntruncated # passes: stale\n"), Cases())
	if err != nil {
		t.Fatal(err)
	}

	whole, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	wantUnexpected, wantStale := baseline.Judge(whole)

	var reports []Report
	for i := 1; i <= 3; i++ {
		shard := Shard{i, 3}
		o := opt
		if o.Cases, err = shard.Cases(Cases()); err != nil {
			t.Fatal(err)
		}
		results, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		results = shard.Reported(results)
		Baseline{"index_minus_1": true}.Judge(results) // a shard's own baseline: dropped by the merge
		var b bytes.Buffer
		r := run
		r.Shard = shard.String()
		if err := WriteRunJSON(&b, r, results); err != nil {
			t.Fatal(err)
		}
		rep, err := ReadReport(fmt.Sprintf("s%d.json", i), b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	// any order of the reports
	reports[0], reports[2] = reports[2], reports[0]
	gotRun, merged, err := MergeReports(reports)
	if err != nil {
		t.Fatal(err)
	}
	if gotRun != run {
		t.Errorf("merged run %+v, want %+v", gotRun, run)
	}
	unexpected, stale := baseline.Judge(merged)
	if diff := cmp.Diff(verdicts(whole), verdicts(merged)); diff != "" {
		t.Errorf("merged verdicts (-unsharded +merged):\n%s", diff)
	}
	if diff := cmp.Diff(verdicts(wantUnexpected), verdicts(unexpected)); diff != "" {
		t.Errorf("unexpected failures (-unsharded +merged):\n%s", diff)
	}
	if !cmp.Equal(wantStale, stale) || len(stale) != 1 {
		t.Errorf("stale entries: merged %v, unsharded %v", stale, wantStale)
	}
	if len(unexpected) < 10 || merged[5].Details[:len("clean fails too")] != "clean fails too" {
		t.Errorf("the agent was to fail most cases after clean: %d unexpected, %q", len(unexpected), merged[5].Details)
	}
}

// report is a report of the cases ids in run's format.
func report(t *testing.T, name string, run RunInfo, ids ...string) Report {
	t.Helper()
	cases, err := SelectCases(Cases(), ids)
	if err != nil {
		t.Fatal(err)
	}
	checks := make([]Check, len(cases))
	for i, c := range cases {
		checks[i] = Check{ID: c.ID, Tier: c.Tier, Status: Success, API: run.API, Agent: run.Agent, Cassette: run.Cassette, Shard: run.Shard}
	}
	return Report{Name: name, Checks: checks}
}

func TestMergeReportsRefuses(t *testing.T) {
	one := RunInfo{API: "chat", Agent: "node agent.js", Shard: "1/2"}
	two := one
	two.Shard = "2/2"
	with := func(r RunInfo, f func(*RunInfo)) RunInfo { f(&r); return r }
	mixed := report(t, "mixed.json", two, "crlf", "truncated")
	mixed.Checks[1].Agent = "other"
	for _, tt := range []struct {
		reason  string
		reports []Report
		want    string
	}{
		{"nothing", nil, "no reports: name the JSON reports of every shard"},
		{"a case twice", []Report{report(t, "a.json", one, "clean", "crlf"), report(t, "b.json", two, "crlf")},
			"the case crlf is in both a.json and b.json: give each shard's report once"},
		{"a shard twice", []Report{report(t, "a.json", one, "clean"), report(t, "b.json", one, "crlf")},
			"a.json and b.json are both the report of shard 1/2: give each shard's report once"},
		{"a missing shard", []Report{report(t, "a.json", one, "clean")},
			"no report of shard 2/2: give the report of every shard"},
		{"another format", []Report{report(t, "a.json", one, "clean"), report(t, "b.json", with(two, func(r *RunInfo) { r.API = "messages" }), "crlf")},
			"b.json is a report of -api messages, a.json of -api chat: merge the reports of one run"},
		{"another agent", []Report{report(t, "a.json", one, "clean"), report(t, "b.json", with(two, func(r *RunInfo) { r.Agent = "python agent.py" }), "crlf")},
			`b.json is a report of the agent "python agent.py", a.json of "node agent.js": merge the reports of one run`},
		{"another cassette", []Report{report(t, "a.json", one, "clean"), report(t, "b.json", with(two, func(r *RunInfo) { r.Cassette = "x.yaml" }), "crlf")},
			`b.json replays the cassette "x.yaml", a.json "": merge the reports of one run`},
		{"another shard count", []Report{report(t, "a.json", one, "clean"), report(t, "b.json", with(two, func(r *RunInfo) { r.Shard = "2/3" }), "crlf")},
			"b.json is the report of shard 2/3, the others of 2 shards: merge the reports of one run"},
		{"a shard and no shard", []Report{report(t, "a.json", with(one, func(r *RunInfo) { r.Shard = "" }), "clean"), report(t, "b.json", two, "crlf")},
			"b.json is the report of shard 2/2, the others of no shard: merge the reports of one sharded run"},
		{"no shard after a shard", []Report{report(t, "b.json", two, "crlf"), report(t, "a.json", with(one, func(r *RunInfo) { r.Shard = "" }), "clean")},
			"a.json is no shard's report, the others are: merge the reports of one sharded run"},
		{"no run named", []Report{report(t, "old.json", RunInfo{}, "clean")},
			`old.json names no run (no "api" in its checks): write it with agentvcr conform -json of this version`},
		{"two runs in one file", []Report{mixed},
			`mixed.json mixes the checks of two runs ({API:chat Agent:node agent.js Cassette: Shard:2/2} and {API:chat Agent:other Cassette: Shard:2/2})`},
		{"an empty report", []Report{{Name: "empty.json"}},
			"empty.json reports no case: a shard's report always has one (conform -shard refuses more shards than cases)"},
		{"a case of no catalog", []Report{{Name: "future.json", Checks: []Check{{ID: "clean", API: "chat"}, {ID: "index_plus_7", API: "chat"}}}},
			"future.json reports the case index_plus_7, which this agentvcr's -api chat catalog does not have: use the agentvcr that ran conform"},
		{"an unknown format", []Report{{Name: "odd.json", Checks: []Check{{ID: "clean", API: "completions"}}}},
			`odd.json: unknown wire format "completions": want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse`},
	} {
		_, _, err := MergeReports(tt.reports)
		if want := "cannot merge the reports: " + tt.want; !errors.Is(err, ErrBadMerge) || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", tt.reason, err, want)
		}
	}
	if _, err := ReadReport("t.txt", []byte("clean SUCCESS\n")); !errors.Is(err, ErrBadMerge) ||
		err.Error() != "cannot merge the reports: t.txt: invalid character 'c' looking for beginning of value: give the file agentvcr conform -json wrote" {
		t.Errorf("ReadReport of text: %v", err)
	}
}
