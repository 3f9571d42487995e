package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// startRecord runs agentvcr record in the background; stop cancels it (as
// Ctrl-C does) and returns its exit code and stderr.
func startRecord(t *testing.T, dir string, vars map[string]string, args ...string) (baseURL string, stop func() (int, string)) {
	t.Helper()
	return startCommand(t, dir, vars, Record, args...)
}

// startCommand runs a long-running command (Record, Proxy) in the
// background, as startRecord does. When its first stdout line arrives,
// every start-up line of its stderr is there already.
func startCommand(t *testing.T, dir string, vars map[string]string, cmd func(context.Context, Env, []string) int, args ...string) (baseURL string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &lineWriter{first: make(chan string, 1)}
	stderr := &lineWriter{first: make(chan string, 1)}
	env := Env{Dir: dir, Getenv: func(k string) string { return vars[k] }, Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr}
	done := make(chan int, 1)
	go func() { done <- cmd(ctx, env, args) }()
	stop = func() (int, string) {
		cancel()
		return <-done, stderr.String()
	}
	select {
	case line := <-stdout.first:
		url, ok := strings.CutPrefix(line, "OPENAI_BASE_URL=")
		if !ok {
			t.Fatalf("first stdout line %q lacks OPENAI_BASE_URL=", line)
		}
		return url, stop
	case code := <-done:
		t.Fatalf("exit %d before listening: %s", code, stderr.String())
	}
	return "", nil
}

// TestRecordProxyThenReplay: our agent runs live through agentvcr record
// in front of the scripted gateway; Ctrl-C saves; the cassette replays to
// the same transcript and holds no key.
func TestRecordProxyThenReplay(t *testing.T) {
	const key = "sk-test-record-proxy-0123456789abcdef"
	gw, stopGW := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	defer stopGW()
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	base, stop := startRecord(t, dir, nil, "-upstream", gw, "-o", "rec.yaml")
	code, live, stderr := runIn(dir, map[string]string{"OPENAI_API_KEY": key}, "run", "-base-url", base, "-model", demo.ScriptDemo)
	if code != 0 {
		t.Fatalf("run through the proxy: exit %d: %s", code, stderr)
	}
	code, stderr = stop()
	if code != 0 || !strings.HasSuffix(stderr, "agentvcr record: saved 4 interactions to rec.yaml\n") {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "rec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("sk-test")) {
		t.Errorf("the cassette holds the key")
	}
	code, replayed, stderr := runIn(dir, nil, "run", "-cassette", "rec.yaml")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(live, replayed); diff != "" {
		t.Errorf("replay differs from the run through the proxy (-proxied +replayed):\n%s", diff)
	}
}

func TestRecordCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.yaml"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		vars   map[string]string
		args   []string
		code   int
		stderr string
	}{
		{"CI", map[string]string{"CI": "true"}, []string{"-upstream", "http://127.0.0.1:1/v1", "-o", "old.yaml"}, 1,
			"agentvcr record: recording is refused when CI=true: record on your machine and commit the cassette\n"},
		{"no upstream", nil, []string{"-o", "old.yaml"}, 2,
			"agentvcr record: no upstream: pass -upstream URL (the gateway's base URL, e.g. https://api.openai.com/v1)\n"},
		{"no output", nil, []string{"-upstream", "http://127.0.0.1:1/v1"}, 2,
			"agentvcr record: no output: pass -o FILE.yaml\n"},
		{"an upstream that is not a URL", nil, []string{"-upstream", "api.openai.com", "-o", "old.yaml"}, 1,
			"agentvcr record: upstream \"api.openai.com\" is not an http(s) base URL such as https://api.openai.com/v1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := Env{Dir: dir, Getenv: func(k string) string { return tt.vars[k] }, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a proxy that starts by mistake stops at once
			if code := Record(ctx, env, tt.args); code != tt.code || errb.String() != tt.stderr || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d, stderr:\n%s", code, out.String(), errb.String(), tt.code, tt.stderr)
			}
		})
	}
	// Ctrl-C before any request: says so, and the old file stays.
	_, stop := startRecord(t, dir, nil, "-upstream", "http://127.0.0.1:1/v1", "-o", "old.yaml")
	code, stderr := stop()
	if want := "agentvcr record: nothing was recorded (no request came through): old.yaml was not written\n"; code != 1 || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, ending in %s", code, stderr, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "old.yaml")); string(data) != "keep me" {
		t.Errorf("old.yaml changed: %q", data)
	}
}
