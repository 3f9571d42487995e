package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/serve"
)

// lineWriter hands the first line written to it over a channel.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan string
	sent  bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if line, _, ok := strings.Cut(w.buf.String(), "\n"); ok && !w.sent {
		w.sent = true
		w.first <- line
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startServe runs agentvcr serve in the background and returns its base
// URL; the server stops when the test ends, and must exit 0.
func startServe(t *testing.T, dir string, args ...string) (baseURL string, stderr *lineWriter) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &lineWriter{first: make(chan string, 1)}
	stderr = &lineWriter{first: make(chan string, 1)}
	env := Env{Dir: dir, Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr}
	done := make(chan int, 1)
	go func() { done <- Serve(ctx, env, args) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	})
	select {
	case line := <-stdout.first:
		url, ok := strings.CutPrefix(line, "OPENAI_BASE_URL=")
		if !ok {
			t.Fatalf("first stdout line %q lacks OPENAI_BASE_URL=", line)
		}
		return url, stderr
	case code := <-done:
		done <- code
		t.Fatalf("serve exited %d before serving: %s", code, stderr.String())
	}
	return "", nil
}

// TestServeCommandAnswersOurAgent runs agentvcr run live against
// agentvcr serve: the transcript is the one the cassette replays.
func TestServeCommandAnswersOurAgent(t *testing.T) {
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(dir, "journal.jsonl")
	base, _ := startServe(t, dir, "-cassette", "parallel", "-cassette", "demo", "-journal", "journal.jsonl")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/v1") {
		t.Errorf("base URL %q: want loopback, ending in /v1", base)
	}
	code, want, stderr := runIn(dir, nil, "run", "-cassette", "parallel", "-C", ".")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	for _, url := range []string{base, serve.ScenarioURL(base, "parallel"), serve.ScenarioURL(base, "parallel~args_one_rune")} {
		code, got, stderr := runIn(dir, map[string]string{"OPENAI_API_KEY": "dummy"}, "run", "-base-url", url, "-model", "parallel")
		if code != 0 {
			t.Fatalf("run against %s: exit %d: %s", url, code, stderr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("run against %s (-replay +served):\n%s", url, diff)
		}
	}
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 9 {
		t.Errorf("journal has %d lines, want 9 (three runs of three requests)", n)
	}
}

func TestServeCommandBadInput(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "garbage.yaml"), []byte("interactions: [oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty.yaml"), []byte("---\nversion: 1\ninteractions: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"a port in use", []string{"-listen", busy.Addr().String()}, 1,
			"agentvcr serve: listen on " + busy.Addr().String() + ": listen tcp " + busy.Addr().String() + ": bind: address already in use: pick another -listen port, or 127.0.0.1:0 for a free one\n"},
		{"a cassette file that is missing", []string{"-cassette", "nope.yaml"}, 1,
			"agentvcr serve: cannot read cassette nope.yaml: open " + filepath.Join(dir, "nope.yaml") + ": no such file or directory; pass a readable .yaml path\n"},
		{"a file that is not a cassette", []string{"-cassette", "garbage.yaml"}, 1,
			"agentvcr serve: cassette garbage: bad cassette: not a go-vcr v2 cassette: line 1: did not find expected ',' or ']'; fix that line or re-record the cassette (agentvcr run ... -record PATH)\n"},
		{"an empty cassette", []string{"-cassette", "empty.yaml"}, 1,
			"agentvcr serve: cassette empty: recording holds no interaction\n"},
		{"a folder named like a cassette", []string{"-cassette", "folder.yaml"}, 1,
			"agentvcr serve: cannot read cassette folder.yaml: read " + filepath.Join(dir, "folder.yaml") + ": is a directory; pass a readable .yaml path\n"},
		{"recorded pace on a file that is not a cassette", []string{"-pace", "recorded", "-cassette", "garbage.yaml"}, 2,
			"agentvcr serve: -pace recorded: cassette garbage: bad cassette: not a go-vcr v2 cassette: line 1: did not find expected ',' or ']'; fix that line or re-record the cassette (agentvcr run ... -record PATH)\n"},
		{"recorded pace on an empty cassette", []string{"-pace", "recorded", "-cassette", "empty.yaml"}, 2,
			"agentvcr serve: -pace recorded: cassette empty keeps no event times (it was not recorded by agentvcr record, or before record kept them): record it again, or give -pace D\n"},
		{"an unknown embedded name", []string{"-cassette", "nope"}, 1,
			"agentvcr serve: no embedded cassette \"nope\": pass a .yaml path or one of demo, demo_bad_args, demo_unknown_tool, parallel, read_generated\n"},
		{"an unknown quirk", []string{"-quirk", "nope"}, 2,
			"agentvcr serve: unknown -quirk \"nope\": pick one of " + strings.Join(quirk.Names(), ", ") + "\n"},
		{"a bad fault", []string{"-fault", "stall:x"}, 2,
			"agentvcr serve: -fault: bad fault \"stall:x\": N must be a whole number (at least 1 for 429) (want KIND[:N][@TURN], KIND one of 429, 500, stall, reset, error-event, ws-split, ws-pair, ws-close, ws-close-bare, ws-ping, ws-error, ws-forget, ws-refuse)\n"},
		{"a bad match mode", []string{"-match", "prompt"}, 2,
			"agentvcr serve: -match: unknown match mode \"prompt\" (want body or turn)\n"},
		{"an argument", []string{"parallel"}, 2,
			"agentvcr serve: unexpected argument \"parallel\": pass cassettes with -cassette\n"},
		{"-ignore with turn matching", []string{"-match", "turn", "-ignore", "user"}, 2,
			"agentvcr serve: -ignore leaves fields out of body matching: give it with -match body\n"},
		{"an empty -ignore path", []string{"-ignore", ""}, 2,
			"agentvcr serve: -ignore \"\": give a field path such as messages.0.content, or volatile\n"},
		{"an -ignore path with an empty key", []string{"-ignore", "messages..content"}, 2,
			"agentvcr serve: -ignore \"messages..content\": give a field path such as messages.0.content, or volatile\n"},
		{"recorded pace on cassettes that keep no times", []string{"-pace", "recorded", "-cassette", "parallel"}, 2,
			"agentvcr serve: -pace recorded: cassette parallel keeps no event times (it was not recorded by agentvcr record, or before record kept them): record it again, or give -pace D\n"},
		{"-speed without -pace recorded", []string{"-speed", "2"}, 2,
			"agentvcr serve: -speed scales the recorded timing: give it with -pace recorded\n"},
		{"a speed of zero", []string{"-pace", "recorded", "-speed", "0"}, 2,
			"agentvcr serve: -speed 0: give a positive factor, e.g. 2 for twice as fast\n"},
		{"recorded pace and rechunking", []string{"-pace", "recorded", "-rechunk", "bytes"}, 2,
			"agentvcr serve: -pace recorded times whole events: it cannot go with -rechunk bytes\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := Env{Dir: dir, Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
			// Cancelled already: a server that starts by mistake returns at once.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			code := Serve(ctx, env, tt.args)
			if code != tt.code || errb.String() != tt.stderr || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d, no stdout, stderr:\n%s", code, out.String(), errb.String(), tt.code, tt.stderr)
			}
		})
	}
	// Nothing was lost: the files are as they were.
	if data, _ := os.ReadFile(filepath.Join(dir, "garbage.yaml")); string(data) != "interactions: [oops" {
		t.Errorf("garbage.yaml changed: %q", data)
	}
}

// -pace takes a duration or "recorded"; anything else is refused with the
// flag's usage.
func TestServePaceFlag(t *testing.T) {
	for _, bad := range []string{"fast", "-5ms", "Recorded"} {
		code, stdout, stderr := Capture(Env{Dir: t.TempDir()}, "serve", "-pace", bad)
		if want := "invalid value \"" + bad + "\" for flag -pace: want a duration such as 50ms, or recorded\n"; code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("-pace %s: exit %d, stderr %q", bad, code, stderr)
		}
	}
	var p paceFlag
	for in, want := range map[string]paceFlag{"recorded": {recorded: true}, "50ms": {every: 50 * time.Millisecond}, "0": {}} {
		if err := p.Set(in); err != nil || p != want || p.String() != map[string]string{"recorded": "recorded", "50ms": "50ms", "0": "0s"}[in] {
			t.Errorf("-pace %s: %+v %v", in, p, err)
		}
	}
}
