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
		{"unknown field", map[string]string{"a.txtar": good + "owner: me\n"},
			"bad case file DIR/a.txtar:6: unknown field \"owner\" (the fields are id, api, doc, seen, quirks, expect, reason)"},
		{"unknown expect", map[string]string{"a.txtar": good + "expect: same\nreason: r\n"},
			"bad case file DIR/a.txtar:6: expect \"same\": want benign or broken"},
		{"expect without reason", map[string]string{"a.txtar": good + "expect: broken\n"},
			"bad case file DIR/a.txtar:6: expect and reason go together: an expectation that overrides the derived one says why"},
		{"reason without expect", map[string]string{"a.txtar": good + "reason: r\n"},
			"bad case file DIR/a.txtar:6: expect and reason go together: an expectation that overrides the derived one says why"},
		{"benign, refused", map[string]string{"a.txtar": strings.Replace(good, "quirks: crlf", "quirks: truncated", 1) + "expect: benign\nreason: r\n"},
			"bad case file DIR/a.txtar:6: expect benign: our merger refuses this turn, so there are no merged calls to demand"},
		{"benign, bad arguments", map[string]string{"a.txtar": strings.Replace(good, "quirks: crlf", "quirks: bad_args", 1) + "expect: benign\nreason: r\n"},
			"bad case file DIR/a.txtar:6: expect benign: the turn's first call carries arguments that are not JSON, which an agent answers with an error, not with the clean run's result"},
		{"no field", map[string]string{"a.txtar": "id mine\n"},
			"bad case file DIR/a.txtar:1: \"id mine\" is no field: write one field a line, name: value (the fields are id, api, doc, seen, quirks, expect, reason)"},
		{"missing field", map[string]string{"a.txtar": "id: mine\napi: chat\ndoc: d\nquirks: crlf\n"},
			"bad case file DIR/a.txtar:4: field seen is missing (the fields are id, api, doc, seen, quirks, expect, reason)"},
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
			"bad case file DIR/a.txtar:2: unknown wire format \"chatgpt\": want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse"},
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

// capturedChat is a chat stream as a gateway might send it, with a shape
// of its own: the first call at index 1, the second's arguments in one
// piece with its name.
const capturedChat = `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]}}]}

data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"path\":\"README.md\"}"}}]}}]}

data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_b","type":"function","function":{"name":"grep","arguments":"{\"pattern\":\"conform\"}"}}]}}]}

data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`

// TestCapturedTurnCaseFiles: a case file holding a captured stream is
// served as it is for the turn with the calls; a stream our merger merges
// demands its calls re-sent and answered (the positional agent loses the
// call at index 1), one it refuses demands nothing of the turn sent on
// (cut inside the second call: both agents refuse it).
func TestCapturedTurnCaseFiles(t *testing.T) {
	head := "id: %s\napi: chat\ndoc: d\nseen: s\n-- turn.sse --\n"
	cut := capturedChat[:strings.Index(capturedChat, `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason"`)]
	cut = cut[:strings.LastIndex(strings.TrimSuffix(cut, "\n\n"), `"arguments":"{\"pattern\"`)+len(`"arguments":"{\"pat`)] + "\n\n"
	dir := writeCaseFiles(t, map[string]string{
		"a.txtar": strings.Replace(head, "%s", "gw_index_from_1", 1) + capturedChat,
		"b.txtar": strings.Replace(head, "%s", "gw_cut", 1) + cut,
	})
	cases, _, err := ReadCaseFiles(chatFormat, Cases(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Expect != ExpectSame || cases[0].DropsIDs || cases[1].Expect != ExpectBroken || cases[0].Captured == nil {
		t.Fatalf("cases %+v", cases)
	}
	all := append(SelectCasesOrDie(t, Cases(), "clean"), cases...)
	for _, tt := range []struct {
		agent string
		want  map[string]Status
	}{
		{agentGood, map[string]Status{"clean": Success, "gw_index_from_1": Success, "gw_cut": Success}},
		{agentPositional, map[string]Status{"clean": Success, "gw_index_from_1": Failure, "gw_cut": Success}},
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
	}
	// a captured call of a tool the agent does not offer stops the run, naming the case
	other := writeCaseFiles(t, map[string]string{"c.txtar": strings.Replace(head, "%s", "gw_glob", 1) + strings.Replace(capturedChat, `"name":"grep"`, `"name":"glob"`, 1)})
	cases, _, err = ReadCaseFiles(chatFormat, Cases(), []string{other})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentGood), Cases: append(SelectCasesOrDie(t, Cases(), "clean"), cases...), Timeout: slow * 10 * time.Second})
	want := "case gw_glob (" + filepath.Join(other, "c.txtar") + "): the captured turn calls glob, which the agent does not offer (it offers write_file, read_file, grep): capture a turn of this agent"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestCapturedTurnRefusals: a captured stream of another format than the
// file says, one that calls no tool, a file with both quirks and a
// stream, a second section, and a credential anywhere in the file are
// each refused in one line naming the file.
func TestCapturedTurnRefusals(t *testing.T) {
	head := "id: mine\napi: chat\ndoc: d\nseen: s\n"
	messagesStream := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[]}}\n\n"
	textOnly := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, tt := range []struct{ name, file, want string }{
		{"another format", head + "-- turn.sse --\n" + messagesStream,
			"bad case file DIR/a.txtar: -- turn.sse -- is a messages stream, the file says api chat"},
		{"no call", head + "-- turn.sse --\n" + textOnly,
			"bad case file DIR/a.txtar: -- turn.sse -- calls no tool: capture the turn with the calls"},
		{"both", head + "quirks: crlf\n-- turn.sse --\n" + capturedChat,
			"bad case file DIR/a.txtar:5: quirks and a captured stream: give one (the quirks edit the probe's turn, the captured stream is served as it is)"},
		{"two sections", head + "-- turn.sse --\n" + capturedChat + "-- more.sse --\n" + capturedChat,
			"bad case file DIR/a.txtar:5: a file section -- more.sse --: a case file holds one at the most, -- turn.sse --, the captured stream of the turn with the calls"},
		{"empty section", head + "-- turn.sse --\n\n",
			"bad case file DIR/a.txtar:5: -- turn.sse -- is empty: paste the stream the gateway sent"},
		{"a key", head + "-- turn.sse --\n" + strings.Replace(capturedChat, "README.md", "sk-abcdefghijklmnopqrstuvwx", 1),
			"bad case file DIR/a.txtar: it holds a credential (an sk- key on line 10): remove it, a case file is kept in a repository"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeCaseFiles(t, map[string]string{"a.txtar": tt.file})
			_, _, err := ReadCaseFiles(chatFormat, Cases(), []string{dir})
			if want := strings.ReplaceAll(tt.want, "DIR", dir); err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
		})
	}
}

// TestCaseFileExpect: a file's expect overrides what its quirks derive,
// and its reason goes into the case's doc: broken on a stream our merger
// merges fails an agent that sends the turn on; benign on a benign
// composition changes nothing but the doc.
func TestCaseFileExpect(t *testing.T) {
	strict := "id: acme_strict\napi: chat\ndoc: CRLF line ends\nseen: ACME gateway 2.5\nquirks: crlf\nexpect: broken\nreason: ACME sends CRLF only when its upstream failed\n"
	plain := "id: acme_plain\napi: chat\ndoc: CRLF line ends\nseen: ACME gateway 2.5\nquirks: crlf\nexpect: benign\nreason: CRLF is only framing\n"
	dir := writeCaseFiles(t, map[string]string{"strict.txtar": strict, "plain.txtar": plain})
	files, errs := CheckCaseFiles([]string{dir})
	if len(errs) != 0 || len(files) != 2 {
		t.Fatalf("files %+v, errors %v", files, errs)
	}
	plainFile, strictFile := files[0], files[1]
	if got := strictFile.Derived(); got != "broken, by the file" {
		t.Errorf("strict derived %q", got)
	}
	if got := plainFile.Derived(); got != "benign, by the file" {
		t.Errorf("plain derived %q", got)
	}
	s := strictFile.Case
	if s.Expect != ExpectBroken || s.Delivered != DeliveredNone || !s.ToolTurnOnly ||
		s.Doc != "CRLF line ends (expected broken: ACME sends CRLF only when its upstream failed)" {
		t.Errorf("strict: %+v", s)
	}
	p := plainFile.Case
	if p.Expect != ExpectSame || p.Doc != "CRLF line ends (expected benign: CRLF is only framing)" {
		t.Errorf("plain: %+v", p)
	}
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentGood), Cases: []Case{p, s}, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Status{"acme_plain": Success, "acme_strict": Failure}
	for _, r := range results {
		if r.Status != want[r.Case.ID] {
			t.Errorf("%s: %s (%s), want %s", r.Case.ID, r.Status, r.Details, want[r.Case.ID])
		}
	}
}
