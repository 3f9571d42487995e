package cli

import (
	"os"
	"path/filepath"
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
	code, stdout, stderr := Capture(Env{Dir: dir}, "case", "ls", ".")
	want := "acme_runes    chat      benign                ids_dropped+args_one_rune+crlf  " + at("a.txtar") + "\n" +
		"acme_cut      messages  broken                messages_ping_before_delta+messages_cut_before_stop  " + at("b.txtar") + "\n" +
		"acme_captured chat      broken                captured turn.sse  " + at("e.txtar") + "\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Errorf("ls: exit %d\nstdout %q\nwant   %q\nstderr %q", code, stdout, want, stderr)
	}
	if code, stdout, stderr = Capture(Env{Dir: dir}, "case", "check", "."); code != 0 || stdout != "3 case file(s), all good\n" || stderr != "" {
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
