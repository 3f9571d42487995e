package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCaseFiles writes files (name → text) into a fresh folder.
func writeCaseFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	runesFile = "# ACME's gateway in front of a chat model\nid: acme_runes\napi: chat\ndoc: no call ids and arguments one rune a piece, CRLF line ends\nseen: ACME gateway 2.3\nquirks: ids_dropped + args_one_rune + crlf\n"
	indexFile = "id: acme_index\napi: chat\ndoc: indexes from 1 between comment lines\nseen: ACME gateway 2.4\nquirks: comments+index_plus_1\n"
	cutFile   = "id: acme_cut\napi: messages\ndoc: pings, then the stream cut before message_stop\nseen: ACME gateway 2.4\nquirks: messages_ping_before_delta + messages_cut_before_stop\n"
)

// TestCaseFilesRun: case files run beside the catalog as cases of their
// own ids, their expectation derived from the quirks they compose; the
// report names each one's file and report merge reads it back; a file of
// another format is not run and comes back to be named.
func TestCaseFilesRun(t *testing.T) {
	dir := writeCaseFiles(t, map[string]string{"runes.txtar": runesFile, "index.txtar": indexFile, "cut.txtar": cutFile, "notes.md": "not a case file\n"})
	cases, other, err := ReadCaseFiles(chatFormat, Cases(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(other) != 1 || other[0] != filepath.Join(dir, "cut.txtar") {
		t.Errorf("other = %v, want [%s]", other, filepath.Join(dir, "cut.txtar"))
	}
	if len(cases) != 2 || cases[0].ID != "acme_index" || cases[1].ID != "acme_runes" {
		t.Fatalf("cases %+v", cases)
	}
	runes := cases[1]
	if runes.Tier != TierQuirk || runes.Expect != ExpectSame || !runes.DropsIDs || runes.Source != "ACME gateway 2.3" ||
		runes.Doc != "no call ids and arguments one rune a piece, CRLF line ends" || runes.File != filepath.Join(dir, "runes.txtar") {
		t.Errorf("acme_runes: %+v", runes)
	}
	all := append(SelectCasesOrDie(t, Cases(), "clean"), cases...)
	for _, tt := range []struct {
		agent string
		want  map[string]Status
	}{
		{agentGood, map[string]Status{"clean": Success, "acme_index": Success, "acme_runes": Success}},
		// a slice indexed by the stream's index: index 1 for the first call leaves a hole
		{agentPositional, map[string]Status{"clean": Success, "acme_index": Failure, "acme_runes": Success}},
	} {
		results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.agent), Cases: all, Timeout: slow * 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if r.Status != tt.want[r.Case.ID] {
				t.Errorf("%s agent, %s: %s (%s), want %s", tt.agent, r.Case.ID, r.Status, r.Details, tt.want[r.Case.ID])
			}
		}
		var js bytes.Buffer
		if err := WriteRunJSON(&js, RunInfo{API: "chat"}, results); err != nil {
			t.Fatal(err)
		}
		var checks []Check
		if err := json.Unmarshal(js.Bytes(), &checks); err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if want := map[string]string{"acme_index": filepath.Join(dir, "index.txtar"), "acme_runes": filepath.Join(dir, "runes.txtar")}[c.ID]; c.File != want {
				t.Errorf("check %s: file %q, want %q", c.ID, c.File, want)
			}
		}
		if _, err := ReadReport("report.json", js.Bytes()); err != nil {
			t.Errorf("report merge refuses the report: %v", err)
		}
	}
	mcases, mother, err := ReadCaseFiles(messagesFormat, MessagesCases(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(mcases) != 1 || mcases[0].Expect != ExpectBroken || !mcases[0].ToolTurnOnly || len(mother) != 2 {
		t.Errorf("messages: cases %+v, other %v", mcases, mother)
	}
}

// SelectCasesOrDie is SelectCases that fails the test on an error.
func SelectCasesOrDie(t *testing.T, all []Case, names ...string) []Case {
	t.Helper()
	cs, err := SelectCases(all, names)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestCaseFileRefusals: every bad case file is refused with one line that
// names the file, the line and what is wrong, and no case comes back.
func TestCaseFileRefusals(t *testing.T) {
	good := "id: mine\napi: chat\ndoc: d\nseen: s\nquirks: crlf\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string // with DIR for the folder
	}{
		{"unknown field", map[string]string{"a.txtar": good + "expect: same\n"},
			"bad case file DIR/a.txtar:6: unknown field \"expect\" (the fields are id, api, doc, seen, quirks)"},
		{"no field", map[string]string{"a.txtar": "id mine\n"},
			"bad case file DIR/a.txtar:1: \"id mine\" is no field: write one field a line, name: value (the fields are id, api, doc, seen, quirks)"},
		{"missing field", map[string]string{"a.txtar": "id: mine\napi: chat\ndoc: d\nquirks: crlf\n"},
			"bad case file DIR/a.txtar:4: field seen is missing (the fields are id, api, doc, seen, quirks)"},
		{"twice", map[string]string{"a.txtar": "id: mine\n" + good},
			"bad case file DIR/a.txtar:2: field id given twice (first on line 1)"},
		{"empty", map[string]string{"a.txtar": strings.Replace(good, "doc: d", "doc:", 1)},
			"bad case file DIR/a.txtar:3: field doc is empty"},
		{"bad id", map[string]string{"a.txtar": strings.Replace(good, "id: mine", "id: My Case", 1)},
			"bad case file DIR/a.txtar:1: id \"My Case\": an id is lower-case letters, digits and underscores, as the catalog's are"},
		{"catalog id", map[string]string{"a.txtar": strings.Replace(good, "id: mine", "id: crlf", 1)},
			"bad case file DIR/a.txtar:1: id crlf is a case of the catalog: give the file an id of its own"},
		{"same id", map[string]string{"a.txtar": good, "b.txtar": good},
			"bad case file DIR/b.txtar: id mine is also the id of DIR/a.txtar"},
		{"unknown api", map[string]string{"a.txtar": strings.Replace(good, "api: chat", "api: chatgpt", 1)},
			"bad case file DIR/a.txtar:2: unknown wire format \"chatgpt\": want chat, messages, responses, gemini"},
		{"unknown quirk", map[string]string{"a.txtar": strings.Replace(good, "quirks: crlf", "quirks: crlf + nope", 1)},
			"bad case file DIR/a.txtar:5: unknown case \"crlf+nope\": unknown quirk \"nope\""},
		{"another format's quirk", map[string]string{"a.txtar": strings.Replace(good, "quirks: crlf", "quirks: messages_crlf", 1)},
			"bad case file DIR/a.txtar:5: unknown case \"messages_crlf\": it is no quirk case of the -api chat catalog (agentvcr conform -list shows them)"},
		{"cannot compose", map[string]string{"a.txtar": strings.Replace(good, "quirks: crlf", "quirks: crlf + no_done", 1)},
			"bad case file DIR/a.txtar:5: unknown case \"crlf+no_done\": cannot compose crlf with no_done: no_done writes the line ends again, undoing crlf (put crlf after it)"},
		{"two that break", map[string]string{"a.txtar": "id: mine\napi: messages\ndoc: d\nseen: s\nquirks: messages_overloaded_midstream + messages_cut_before_stop\n"},
			"bad case file DIR/a.txtar:5: unknown case \"messages_overloaded_midstream+messages_cut_before_stop\": cannot compose messages_overloaded_midstream with messages_cut_before_stop: both break the answer"},
		{"control character", map[string]string{"a.txtar": strings.Replace(good, "doc: d", "doc: d\x1b[31m", 1)},
			"bad case file DIR/a.txtar:3: field doc holds a control character"},
		{"a stream section", map[string]string{"a.txtar": good + "-- turn.sse --\ndata: {}\n"},
			"bad case file DIR/a.txtar:6: a file section (-- turn.sse --): this agentvcr reads case files that compose quirks, and no captured stream"},
		{"no case file", map[string]string{"a.yaml": good},
			"bad case file: DIR holds no case file (a file whose name ends .txtar)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeCaseFiles(t, tt.files)
			f, all := chatFormat, Cases()
			if strings.Contains(tt.files["a.txtar"], "api: messages") {
				f, all = messagesFormat, MessagesCases()
			}
			cases, other, err := ReadCaseFiles(f, all, []string{dir})
			want := strings.ReplaceAll(tt.want, "DIR", dir)
			if err == nil || err.Error() != want || !errors.Is(err, ErrCaseFile) || cases != nil || other != nil {
				t.Errorf("got %v (cases %v, other %v)\nwant %s", err, cases, other, want)
			}
		})
	}
}

// TestReportOfCaseFiles: report merge reads a check of a case file (its own
// id, with file) and of a composition (q1+q2), and refuses a file's check
// under a catalog id, or a case-file id without its file.
func TestReportOfCaseFiles(t *testing.T) {
	check := func(id, file string) []byte {
		b, _ := json.Marshal([]Check{{ID: id, Tier: TierQuirk, Status: Success, API: "chat", File: file, Description: "d", Source: "s"}})
		return b
	}
	for _, tt := range []struct {
		id, file, want string
	}{
		{"acme_runes", "cases/runes.txtar", ""},
		{"ids_dropped+args_one_rune", "", ""},
		{"crlf", "cases/crlf.txtar", `bad report r.json: check 1: "id" is "crlf", which this agentvcr's -api chat catalog does not have: use the agentvcr that ran conform`},
		{"acme_runes", "", `bad report r.json: check 1: "id" is "acme_runes", which this agentvcr's -api chat catalog does not have: use the agentvcr that ran conform`},
		{"Acme Runes", "cases/runes.txtar", `bad report r.json: check 1: "id" is "Acme Runes", which this agentvcr's -api chat catalog does not have: use the agentvcr that ran conform`},
	} {
		_, err := ReadReport("r.json", check(tt.id, tt.file))
		if got := fmtErr(err); got != tt.want {
			t.Errorf("%s (file %q):\n got %s\nwant %s", tt.id, tt.file, got, tt.want)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
