package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentvcr case ls lists every good case file with what it demands, and
// case check prints every problem, one line each, exit 1; a folder of good
// files checks clean, exit 0.
func TestCaseCheckAndList(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txtar", "id: acme_runes\napi: chat\ndoc: d\nseen: s\nquirks: ids_dropped + args_one_rune + crlf\n")
	write("b.txtar", "# a broken one\nid: acme_cut\napi: messages\ndoc: d\nseen: s\nquirks: messages_ping_before_delta+messages_cut_before_stop\n")
	at := func(name string) string { return filepath.Join(dir, name) } // the folder as given, resolved against Env.Dir
	write("e.txtar", "id: acme_captured\napi: chat\ndoc: d\nseen: s\n-- turn.sse --\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"glob\",\"arguments\":\"{}\"}}]}}]}\n\n")
	write("f.txtar", "id: acme_strict\napi: chat\ndoc: d\nseen: s\nquirks: crlf\nexpect: broken\nreason: CRLF only when its upstream failed\n")
	code, stdout, stderr := Capture(Env{Dir: dir}, "case", "ls", ".")
	want := "acme_runes    chat      benign                ids_dropped+args_one_rune+crlf  " + at("a.txtar") + "\n" +
		"acme_cut      messages  broken                messages_ping_before_delta+messages_cut_before_stop  " + at("b.txtar") + "\n" +
		"acme_captured chat      broken                captured turn.sse  " + at("e.txtar") + "\n" +
		"acme_strict   chat      broken, by the file   crlf  " + at("f.txtar") + "\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("ls: exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
	}
	if code, stdout, stderr = Capture(Env{Dir: dir}, "case", "check", "."); code != 0 || stdout != "4 case file(s), all good\n" || stderr != "" {
		t.Errorf("check: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	write("c.txtar", "id: acme_runes\napi: chat\ndoc: d\nseen: s\nquirks: crlf\n")
	write("d.txtar", "id: acme_nope\napi: chat\ndoc: d\nseen: s\nquirks: crlf + nope\n")
	code, stdout, stderr = Capture(Env{Dir: dir}, "case", "check", ".")
	wantErr := "agentvcr case check: bad case file " + at("c.txtar") + ": id acme_runes is also the id of " + at("a.txtar") + "\n" +
		"agentvcr case check: bad case file " + at("d.txtar") + ":5: unknown case \"crlf+nope\": unknown quirk \"nope\"\n"
	if code != 1 || stdout != "" || stderr != wantErr {
		t.Errorf("check: exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, wantErr)
	}
	if code, _, stderr = Capture(Env{Dir: dir}, "case", "check"); code != 2 || stderr != "agentvcr case check: name the folders of case files, e.g. agentvcr case check cases/\n" {
		t.Errorf("no folder: exit %d, %q", code, stderr)
	}
}

// agentvcr case new writes a case file from a raw stream and says what it
// demands; an existing file, missing fields, a stream with a credential
// are one line and exit 2, and no file is written.
func TestCaseNew(t *testing.T) {
	dir := t.TempDir()
	stream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"index\":0,\"function\":{\"name\":\"glob\",\"arguments\":\"\"}}]}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":\"\",\"type\":\"function\",\"index\":0,\"function\":{\"arguments\":\"{\\\"pattern\\\":\\\"*.md\\\"}\"}}]}}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
	os.WriteFile(filepath.Join(dir, "turn.sse"), []byte(stream), 0o644)
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	args := []string{"case", "new", "-id", "empty_ids", "-doc", "id \"\" on every piece", "-seen", "DashScope", "-sse", "turn.sse", "-o", "cases"}
	code, stdout, stderr := Capture(Env{Dir: dir}, args...)
	path := filepath.Join(dir, "cases", "empty_ids.txtar")
	want := "wrote " + path + " (chat, from turn.sse): benign: 1 call(s) re-sent as merged and answered, then the run finished: glob {\"pattern\":\"*.md\"}\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
	}
	if code, _, stderr = Capture(Env{Dir: dir}, "case", "check", "cases"); code != 0 {
		t.Errorf("case check of the new file: exit %d, %s", code, stderr)
	}
	code, _, stderr = Capture(Env{Dir: dir}, args...)
	if code != 2 || stderr != "agentvcr case new: "+path+" exists: give the case another -id, or remove the file\n" {
		t.Errorf("again: exit %d, %q", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "key.sse"), []byte(strings.Replace(stream, "*.md", "sk-abcdefghijklmnopqrstuvwx", 1)), 0o644)
	code, _, stderr = Capture(Env{Dir: dir}, "case", "new", "-id", "leaky", "-doc", "d", "-seen", "s", "-sse", "key.sse", "-o", "cases")
	if want := "agentvcr case new: bad case file " + filepath.Join(dir, "cases", "leaky.txtar") + ": it holds a credential (an sk- key on line 9): remove it, a case file is kept in a repository\n"; code != 2 || stderr != want {
		t.Errorf("a key: exit %d\n%q\nwant %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "cases", "leaky.txtar")); err == nil {
		t.Error("the case file with the key was written")
	}
	if code, _, stderr = Capture(Env{Dir: dir}, "case", "new", "-id", "x", "-sse", "turn.sse"); code != 2 || stderr != "agentvcr case new: give -id, -doc and -seen: they are the case's id, what it does, and where it was seen\n" {
		t.Errorf("no doc: exit %d, %q", code, stderr)
	}
}
