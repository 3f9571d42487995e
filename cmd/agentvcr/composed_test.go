package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	conformpkg "github.com/agentvcr/agentvcr/harness/conform"
)

// TestConformComposedCases: conform -case takes compositions of quirk
// cases that are not in the catalog, their expectation derived from their
// parts; our own agent passes benign ones and a broken one alike.
func TestConformComposedCases(t *testing.T) {
	for _, tt := range []struct {
		api    string
		cases  []string
		expect map[string]conformpkg.Expect
	}{
		{"chat", []string{"ids_dropped+args_one_rune", "comments+no_done+crlf", "interleaved_calls+bad_args"},
			map[string]conformpkg.Expect{"ids_dropped+args_one_rune": conformpkg.ExpectSame, "comments+no_done+crlf": conformpkg.ExpectSame,
				"interleaved_calls+bad_args": conformpkg.ExpectBadArgs}},
		{"messages", []string{"messages_ping_before_delta+messages_args_one_rune+messages_crlf", "messages_args_split_escapes+messages_cut_before_stop+comments"},
			map[string]conformpkg.Expect{"messages_ping_before_delta+messages_args_one_rune+messages_crlf": conformpkg.ExpectSame,
				"messages_args_split_escapes+messages_cut_before_stop+comments": conformpkg.ExpectBroken}},
	} {
		t.Run(tt.api, func(t *testing.T) {
			format, err := conformpkg.FormatByName(tt.api)
			if err != nil {
				t.Fatal(err)
			}
			cases, err := conformpkg.SelectCases(format.Cases(), tt.cases)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				if c.Expect != tt.expect[c.ID] {
					t.Errorf("%s expects %d, want %d", c.ID, c.Expect, tt.expect[c.ID])
				}
			}
			args := ownAgent(t, "-api", tt.api)
			results, table := conformInProcess(t, conformpkg.Options{Format: format, Cases: cases, Timeout: 20 * time.Second}, args[2:])
			if len(results) != len(tt.cases) {
				t.Fatalf("%d results for %d cases:\n%s", len(results), len(tt.cases), table)
			}
			for _, r := range results {
				if r.Status != conformpkg.Success {
					t.Errorf("%s: %s: %s\n%s", r.Case.ID, r.Status, r.Details, table)
				}
			}
		})
	}
}

// TestConformCaseFiles: conform -cases DIR runs the folder's case files of
// its -api beside the catalog (here alone, with -case), lists them with
// -list, names the files of another -api it leaves out, and writes each
// one's file into the JSON report; a bad file is one line and exit 2.
func TestConformCaseFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := filepath.Join(dir, "cases")
	os.Mkdir(cases, 0o755)
	os.WriteFile(filepath.Join(cases, "runes.txtar"), []byte("id: acme_runes\napi: chat\ndoc: no ids, one rune a piece\nseen: ACME gateway 2.3\nquirks: ids_dropped + args_one_rune + crlf\n"), 0o644)
	os.WriteFile(filepath.Join(cases, "ping.txtar"), []byte("id: acme_ping\napi: messages\ndoc: pings\nseen: ACME gateway 2.3\nquirks: messages_ping_before_delta\n"), 0o644)
	wantErr := "agentvcr conform: -cases: 1 case file(s) of another -api not run here: " + filepath.Join(cases, "ping.txtar") + "\n"
	code, stdout, stderr := conform("-cases", cases, "-list", "--", "true")
	if code != 0 || !strings.HasSuffix(stdout, "\nacme_runes              quirk   no ids, one rune a piece\n") || stderr != wantErr {
		t.Errorf("-list: exit %d\n%s%s", code, stdout, stderr)
	}
	report := filepath.Join(dir, "report.json")
	code, stdout, stderr = conform(append([]string{"-cases", cases, "-case", "clean,acme_runes", "-json", report}, ownAgent(t)...)...)
	if code != 0 || stderr != wantErr || !strings.Contains(stdout, "2 cases: 2 SUCCESS, 0 FAILURE, 0 WARNING, 0 SKIPPED") {
		t.Errorf("exit %d\nstderr %q\nwant   %q\n%s", code, stderr, wantErr, stdout)
	}
	var checks []struct{ ID, Status, File string }
	data, _ := os.ReadFile(report)
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatal(err)
	}
	if len(checks) != 2 || checks[1].ID != "acme_runes" || checks[1].File != filepath.Join(cases, "runes.txtar") || checks[0].File != "" {
		t.Errorf("report: %+v", checks)
	}
	os.WriteFile(filepath.Join(cases, "bad.txtar"), []byte("id: acme_bad\n"), 0o644)
	code, stdout, stderr = conform("-cases", cases, "--", "true")
	wantErr = "agentvcr conform: -cases: bad case file " + filepath.Join(cases, "bad.txtar") + ":1: field api is missing (the fields are id, api, doc, seen, quirks, expect, reason)\n"
	if code != 2 || stderr != wantErr || stdout != "" {
		t.Errorf("bad file: exit %d\nstderr %q\nwant   %q", code, stderr, wantErr)
	}
}
