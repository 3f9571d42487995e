package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// report runs agentvcr report in the test process.
func report(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	env := cli.ProcessEnv()
	env.Stdout, env.Stderr = &out, &errs
	code = cli.Main(env, append([]string{"report"}, args...))
	return code, out.String(), errs.String()
}

// verdictsOf reads a JSON report's id, status and baseline mark.
func verdictsOf(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var checks []struct {
		ID, Status string
		Expected   bool `json:"expected_failure"`
	}
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range checks {
		out = append(out, fmt.Sprintf("%s %s %v", c.ID, c.Status, c.Expected))
	}
	return out
}

// Our own agent cut to one turn (it never answers the probe's calls, so
// most cases fail) in three shards, merged by agentvcr report merge with a
// baseline: the verdicts, the exit status and the message of the run
// unsharded with the same baseline. The run is -case's eight cases, from
// every tier, that pass and fail (CI's script shards the whole catalog):
// the shards split what -case leaves.
func TestConformShardsMergeLikeOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent := append([]string{"-case", "clean,index_plus_1,crlf,no_done,truncated,finish_length,fault_500,fault_reset"},
		ownAgent(t, "-max-turns", "1", "-idle-timeout", "1s")...)
	baseline := filepath.Join(dir, "baseline")
	os.WriteFile(baseline, []byte("clean\nindex_plus_1\nfault_500 # passes: stale\n"), 0o644)
	path := func(name string) string { return filepath.Join(dir, name) }

	// The run unsharded and its three shards, all at once, as a CI matrix
	// runs the shards.
	type run struct {
		code           int
		stdout, stderr string
	}
	runs := make([]run, 4)
	var wg sync.WaitGroup
	for i := range runs {
		args := []string{"-baseline", baseline, "-json", path("all.json")}
		if i > 0 {
			args = []string{"-shard", fmt.Sprintf("%d/3", i), "-json", path(fmt.Sprintf("s%d.json", i))}
		}
		wg.Go(func() {
			r := &runs[i]
			r.code, r.stdout, r.stderr = conform(append(args, agent...)...)
		})
	}
	wg.Wait()
	code, whole, stderr := runs[0].code, runs[0].stdout, runs[0].stderr
	if code != 1 || !strings.Contains(stderr, "the baseline lists cases that now pass: fault_500") {
		t.Fatalf("unsharded: exit %d: %s", code, stderr)
	}
	wantErr := strings.ReplaceAll(stderr, "agentvcr conform:", "agentvcr report merge:")
	for i, r := range runs[1:] {
		if r.code != 1 {
			t.Fatalf("shard %d/3: exit %d: %s", i+1, r.code, r.stderr)
		}
	}
	code, merged, stderr := report("merge", "-baseline", baseline, "-json", path("merged.json"), "-junit", path("merged.xml"), "-md", path("merged.md"),
		path("s3.json"), path("s1.json"), path("s2.json"))
	if code != 1 || stderr != wantErr {
		t.Errorf("merge: exit %d\nstderr %q\nwant   %q", code, stderr, wantErr)
	}
	if diff := cmp.Diff(verdictsOf(t, path("all.json")), verdictsOf(t, path("merged.json"))); diff != "" {
		t.Errorf("merged verdicts (-unsharded +merged):\n%s", diff)
	}
	totals := func(table string) string { return table[strings.LastIndex(strings.TrimSpace(table), "\n")+1:] }
	if totals(merged) != totals(whole) || !strings.HasPrefix(totals(whole), "8 cases: 4 SUCCESS, 4 FAILURE (2 in the baseline)") {
		t.Errorf("totals: merged %q, unsharded %q", totals(merged), totals(whole))
	}
	for _, f := range []string{"merged.xml", "merged.md"} {
		if b, err := os.ReadFile(path(f)); err != nil || !bytes.Contains(b, []byte("index_plus_1")) {
			t.Errorf("%s: %v\n%s", f, err, b)
		}
	}

	// A shard left out, and one given twice: nothing merged, exit 2.
	code, stdout, stderr := report("merge", path("s1.json"), path("s2.json"))
	if code != 2 || stdout != "" || stderr != "agentvcr report: cannot merge the reports: no report of shard 3/3: give the report of every shard\n" {
		t.Errorf("a missing shard: exit %d %q %q", code, stdout, stderr)
	}
	code, _, stderr = report("merge", path("s1.json"), path("s2.json"), path("s3.json"), path("s2.json"))
	if want := "agentvcr report: cannot merge the reports: " + path("s2.json") + " and " + path("s2.json") + " are both the report of shard 2/3: give each shard's report once\n"; code != 2 || stderr != want {
		t.Errorf("a shard twice: exit %d %q", code, stderr)
	}
	// The shards' reports as one HTML page, joined as merge joins them; the
	// merged run's -html page is that page too.
	code, page, stderr := report("html", path("s2.json"), path("s3.json"), path("s1.json"))
	// (no -baseline here: the marks of each shard's own are dropped)
	if code != 0 || !strings.Contains(page, `<p id="totals">8 cases: 4 SUCCESS, 4 FAILURE, 0 WARNING, 0 SKIPPED</p>`) || strings.Count(page, `<section class="case"`) != 8 {
		t.Errorf("html of the shards: exit %d %q, or not the run's 8 cases", code, stderr)
	}
	report("merge", "-html", path("merged.html"), path("s3.json"), path("s1.json"), path("s2.json"))
	if b, err := os.ReadFile(path("merged.html")); err != nil || string(b) != page {
		t.Errorf("report merge -html differs from report html of the same shards: %v", err)
	}
	// A shard's report as Markdown, for its job's summary.
	code, md, stderr := report("md", path("s2.json"))
	if code != 0 || !strings.HasPrefix(md, "### agentvcr conform -api chat, shard 2/3\n") || strings.Contains(md, "| `clean` |") {
		t.Errorf("md: exit %d %q\n%s", code, stderr, md)
	}
}

// A report with a field out of range (a negative request count panicked
// report merge) is refused by merge and md alike: one line on stderr
// naming the file and the field, nothing on stdout, no file written, exit 2.
func TestReportRefusesABadField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"id":"clean","tier":"quirk","status":"SUCCESS","description":"d","source":"s","details":"x","exit_code":0,"requests":-1,"duration_ms":1,"api":"chat","agent":"a"}]`), 0o644)
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte("[]\n"), 0o644)
	md := filepath.Join(dir, "out.md")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "-md", md, bad}, "agentvcr report: bad report " + bad + ": check 1: \"requests\" is -1: a count is 0 or more\n"},
		{[]string{"md", bad}, "agentvcr report: bad report " + bad + ": check 1: \"requests\" is -1: a count is 0 or more\n"},
		{[]string{"md", empty}, "agentvcr report: bad report " + empty + ": no check in it: conform -json writes at least one\n"},
	} {
		code, stdout, stderr := report(tt.args...)
		if code != 2 || stdout != "" || stderr != tt.want {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant   %q", tt.args, code, stdout, stderr, tt.want)
		}
	}
	if _, err := os.Stat(md); !os.IsNotExist(err) {
		t.Errorf("merge wrote %s: %v", md, err)
	}
}
