package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// runIn runs one command line in dir with only the given variables set.
func runIn(dir string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	return Capture(Env{Dir: dir, Getenv: Vars(vars)}, args...)
}

// TestLiveRecordThenReplay drives live mode against the scripted gateway
// over loopback, records, then replays the recording with -cassette: the
// transcripts are identical and the key is nowhere in the file.
func TestLiveRecordThenReplay(t *testing.T) {
	const key = "sk-test-live-record-0123456789abcdef"
	url, stop := gateway.New(key, demo.Scripts(tools.ZH)...).Start()
	defer stop()
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"OPENAI_API_KEY": key, "OPENAI_BASE_URL": url}
	code, live, stderr := runIn(dir, vars, "run", "-model", "demo", "-record", "rec.yaml")
	if code != 0 || stderr != "" {
		t.Fatalf("live run: exit %d: %s", code, stderr)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "rec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(rec, []byte(key)) || bytes.Contains(rec, []byte("sk-test")) {
		t.Errorf("the recorded cassette holds the key")
	}
	if n := bytes.Count(rec, []byte("\n    - request:\n")); n != 4 {
		t.Errorf("recorded %d interactions, want 4", n)
	}
	code, replayed, stderr := runIn(dir, nil, "run", "-cassette", "rec.yaml")
	if code != 0 || stderr != "" {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(live, replayed); diff != "" {
		t.Errorf("replayed transcript differs from the live one (-live +replayed):\n%s", diff)
	}
	if !strings.Contains(live, "✔ read_file 回灌 248 字符") {
		t.Errorf("live transcript lacks the read_file card:\n%s", live)
	}
}

func TestRunColour(t *testing.T) {
	env := Env{Dir: t.TempDir(), Color: true}
	code, out, errOut := Capture(env, "run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{ansiDim + "⚙ glob(", ansiGreen + "✔ glob 回灌 50 字符", ansiReset + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
	env.Color = false
	_, out, _ = Capture(env, "run", "-inject", "unknown_tool")
	if strings.Contains(out, "\x1b") {
		t.Errorf("uncoloured output holds ANSI escapes")
	}
	if !strings.Contains(out, "✘ edit_file 回灌 45 字符 · 没有名为 edit_file 的工具。可用的工具是：glob、grep、read_file\n") {
		t.Errorf("no failure card for edit_file:\n%s", out)
	}
}

func TestProcessEnvHonoursNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if ProcessEnv().Color {
		t.Error("Color is on with NO_COLOR set")
	}
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		vars   map[string]string
		code   int
		stderr string
	}{
		{"replay and live flags together", []string{"run", "-cassette", "demo", "-model", "m"}, nil, 2,
			"agentvcr run: -cassette, -inject, -sse and -script replay; -base-url, -model and -record run live: pick one\n"},
		{"inject with cassette", []string{"run", "-inject", "bad_args", "-cassette", "demo"}, nil, 2,
			"agentvcr run: -inject picks a variant of the demo cassette; it cannot be combined with -cassette\n"},
		{"unknown inject", []string{"run", "-inject", "typo"}, nil, 2,
			"agentvcr run: unknown fault in -inject typo (want bad_args or unknown_tool)\n"},
		{"unknown INJECT", []string{"run"}, map[string]string{"INJECT": "typo"}, 2,
			"agentvcr run: unknown fault in INJECT=typo (want bad_args or unknown_tool)\n"},
		{"unknown INJECT, -inject given", []string{"run", "-inject", "typo"}, map[string]string{"INJECT": "bad_args"}, 2,
			"agentvcr run: unknown fault in -inject typo (want bad_args or unknown_tool)\n"},
		{"INJECT with cassette", []string{"run", "-cassette", "demo"}, map[string]string{"INJECT": "bad_args"}, 2,
			"agentvcr run: INJECT=bad_args replays a fault variant of the demo and cannot be combined with -cassette: unset INJECT\n"},
		{"INJECT with sse", []string{"run", "-sse", "turn.sse"}, map[string]string{"INJECT": "unknown_tool"}, 2,
			"agentvcr run: INJECT=unknown_tool replays a fault variant of the demo and cannot be combined with -sse: unset INJECT\n"},
		{"INJECT with live", []string{"run", "-model", "m"}, map[string]string{"INJECT": "bad_args"}, 2,
			"agentvcr run: INJECT=bad_args replays a fault variant of the demo and cannot be combined with -base-url, -model or -record (a live run): unset INJECT\n"},
		{"inject with sse", []string{"run", "-inject", "bad_args", "-sse", "turn.sse"}, nil, 2,
			"agentvcr run: -inject bad_args replays a fault variant of the demo and cannot be combined with -sse\n"},
		{"unknown locale", []string{"run", "-lang", "fr"}, nil, 2, ""},
		{"no gateway", []string{"run", "-model", "m"}, nil, 2,
			"agentvcr run: no gateway: pass -base-url URL or set OPENAI_BASE_URL (e.g. https://api.openai.com/v1)\n"},
		{"no model", []string{"run", "-base-url", "http://127.0.0.1:1/v1"}, nil, 2, ""},
		{"no key", []string{"run", "-base-url", "http://127.0.0.1:1/v1", "-model", "m"}, nil, 1,
			"agentvcr run: OPENAI_API_KEY is not set: export the gateway's key (it is never written to a cassette)\n"},
		{"record in CI", []string{"run", "-base-url", "http://127.0.0.1:1/v1", "-model", "m", "-record", "x.yaml"},
			map[string]string{"OPENAI_API_KEY": "k", "CI": "true"}, 1,
			"agentvcr run: recording is refused when CI=true: record on your machine and commit the cassette\n"},
		{"unknown embedded cassette", []string{"run", "-cassette", "nosuch"}, nil, 1, ""},
		{"unreachable gateway", []string{"run", "-base-url", "http://127.0.0.1:1/v1", "-model", "m"},
			map[string]string{"OPENAI_API_KEY": "k", retryBackoffEnv: "1ms"}, 1, // its retries 1 ms apart, not 0.5 s and 1 s
			"agentvcr run: cannot reach the gateway at http://127.0.0.1:1/v1/chat/completions (connect: connection refused): check -base-url or OPENAI_BASE_URL and the network\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := runIn(dir, tt.vars, tt.args...)
			if code != tt.code || stdout != "" {
				t.Errorf("exit %d and stdout %q, want %d and nothing (stderr %q)", code, stdout, tt.code, stderr)
			}
			if tt.stderr != "" {
				if diff := cmp.Diff(tt.stderr, stderr); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			} else if stderr == "" {
				t.Error("no message on stderr")
			}
			if _, err := os.Stat(filepath.Join(dir, "x.yaml")); err == nil {
				t.Error("a cassette was written")
			}
		})
	}
}

// TestRunInjectFromEnv: INJECT is -inject's default, so the lesson's
// `INJECT=bad_args go run ./cmd/agentvcr run` replays the fault variant to
// its conclusion (exit 0), and -inject on the command line wins over it.
func TestRunInjectFromEnv(t *testing.T) {
	tests := []struct {
		reason string
		vars   map[string]string
		args   []string
		same   []string // the command line that must print the same
		card   string   // a card only the fault variant prints
	}{
		{"INJECT=bad_args", map[string]string{"INJECT": "bad_args"}, []string{"run"}, []string{"run", "-inject", "bad_args"}, "✘ glob 回灌 101 字符"},
		{"INJECT=unknown_tool", map[string]string{"INJECT": "unknown_tool"}, []string{"run"}, []string{"run", "-inject", "unknown_tool"}, "✘ edit_file 回灌 45 字符"},
		{"-inject wins over INJECT", map[string]string{"INJECT": "bad_args"}, []string{"run", "-inject", "unknown_tool"}, []string{"run", "-inject", "unknown_tool"}, "✘ edit_file 回灌 45 字符"},
	}
	for _, tt := range tests {
		code, got, stderr := runIn(t.TempDir(), tt.vars, tt.args...)
		_, want, _ := runIn(t.TempDir(), nil, tt.same...)
		if code != 0 || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", tt.reason, code, stderr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: output differs from %v (-want +got):\n%s", tt.reason, tt.same, diff)
		}
		if !strings.Contains(got, tt.card) || !strings.Contains(got, "测试红的原因") {
			t.Errorf("%s: no %q card or no conclusion:\n%s", tt.reason, tt.card, got)
		}
	}
}
