package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// conform -html writes the run's page; report html rebuilds the same page
// from the run's JSON report and its -out folder, byte for byte; without
// -out it shows the verdicts alone. A missing -out folder of a case is one
// line and exit 2.
func TestConformHTMLAndReportHTML(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page, reportFile, out := filepath.Join(dir, "run.html"), filepath.Join(dir, "report.json"), filepath.Join(dir, "out")
	code, stdout, stderr := conform(append([]string{"-case", "clean,args_one_rune,truncated", "-html", page, "-json", reportFile, "-out", out}, ownAgent(t)...)...)
	if code != 0 {
		t.Fatalf("conform: exit %d\n%s%s", code, stdout, stderr)
	}
	want, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`<p id="totals">3 cases: 3 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED</p>`,
		`<section class="case" id="case-args_one_rune" data-status="SUCCESS" data-tier="quirk">`,
		`<summary>Request 2 as the agent sent it, one message a block</summary>`,
		`The stream served on request 1, against the clean turn`,
	} {
		if !strings.Contains(string(want), s) {
			t.Errorf("conform -html's page lacks %s", s)
		}
	}
	code, stdout, stderr = report("html", "-out", out, reportFile)
	if code != 0 || stderr != "" || stdout != string(want) {
		t.Errorf("report html -out: exit %d, stderr %q; the page differs from conform -html's:\n%s", code, stderr, cmp.Diff(string(want), stdout))
	}
	code, stdout, _ = report("html", reportFile)
	if code != 0 || strings.Contains(stdout, "<summary>Request") || !strings.Contains(stdout, `<p id="totals">3 cases: 3 SUCCESS`) {
		t.Errorf("report html without -out: exit %d, or it shows requests it has not read", code)
	}
	os.RemoveAll(filepath.Join(out, "truncated"))
	code, stdout, stderr = report("html", "-out", out, reportFile)
	if wantErr := "agentvcr report: -out: " + out + " holds no folder truncated: give the -out folder of the run the report is of\n"; code != 2 || stderr != wantErr || stdout != "" {
		t.Errorf("a case's folder missing: exit %d\nstderr %q\nwant   %q", code, stderr, wantErr)
	}
}
