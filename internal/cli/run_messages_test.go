package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// The same scripts recorded in the Messages format replay to the same
// transcript, card for card, as the chat-completions cassettes (-json would
// differ in the ids, toolu_ and call_, and the finish reasons).
func TestRunMessagesReplayMatchesChat(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-lang", "en"},
		{"-inject", "bad_args"},
		{"-inject", "unknown_tool", "-lang", "en"},
	} {
		t.Run(strings.Join(append([]string{"run"}, args...), " "), func(t *testing.T) {
			code, chat, stderr := runIn(t.TempDir(), nil, append([]string{"run"}, args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("chat replay: exit %d: %s", code, stderr)
			}
			code, messages, stderr := runIn(t.TempDir(), nil, append([]string{"run", "-api", "messages"}, args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("messages replay: exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(chat, messages); diff != "" {
				t.Errorf("transcripts differ (-chat +messages):\n%s", diff)
			}
		})
	}
	code, out, stderr := runIn(t.TempDir(), nil, "run", "-cassette", "messages/parallel")
	if code != 0 || stderr != "" || !strings.Contains(out, "⚙ grep(") {
		t.Errorf("messages/parallel: exit %d, stderr %q:\n%s", code, stderr, out)
	}
}

// Live in the Messages format against the scripted gateway, recorded, then
// replayed from the file with no -api: the cassette says its format.
func TestRunMessagesLiveRecordThenReplay(t *testing.T) {
	const key = "sk-ant-test-live-record-0123456789"
	url, stop := gateway.New(key, demo.Scripts(tools.EN)...).Start()
	defer stop()
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": strings.TrimSuffix(url, "/v1")}
	code, live, stderr := runIn(dir, vars, "run", "-api", "messages", "-lang", "en", "-model", "demo", "-record", "rec.yaml")
	if code != 0 || stderr != "" {
		t.Fatalf("live run: exit %d: %s", code, stderr)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "rec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rec), key) || !strings.Contains(string(rec), "/v1/messages") {
		t.Errorf("the cassette holds the key or no /v1/messages request")
	}
	code, replayed, stderr := runIn(dir, nil, "run", "-lang", "en", "-cassette", "rec.yaml")
	if code != 0 || stderr != "" {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(live, replayed); diff != "" {
		t.Errorf("replayed transcript differs (-live +replayed):\n%s", diff)
	}
	if !strings.Contains(live, "✔ read_file fed back 250 chars") {
		t.Errorf("live transcript lacks the read_file card:\n%s", live)
	}
}

func TestRunMessagesUsageErrors(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		vars   map[string]string
		code   int
		stderr string
	}{
		{"unknown -api", []string{"run", "-api", "vertex"}, nil, 2,
			"agentvcr run: -api: unknown api \"vertex\" (want chat, messages, responses, gemini, bedrock, vertex-anthropic, converse)\n"},
		{"no gateway names the Anthropic variable", []string{"run", "-api", "messages", "-model", "m"}, nil, 2,
			"agentvcr run: no gateway: pass -base-url URL or set ANTHROPIC_BASE_URL (e.g. https://api.anthropic.com)\n"},
		{"no key names ANTHROPIC_API_KEY", []string{"run", "-api", "messages", "-model", "m"}, map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:1", "OPENAI_API_KEY": "k"}, 1,
			"agentvcr run: ANTHROPIC_API_KEY is not set: export the gateway's key (it is never written to a cassette)\n"},
		{"unreachable", []string{"run", "-api", "messages", "-base-url", "http://127.0.0.1:1", "-model", "m"}, map[string]string{"ANTHROPIC_API_KEY": "k", retryBackoffEnv: "1ms"}, 1,
			"agentvcr run: cannot reach the gateway at http://127.0.0.1:1/v1/messages (connect: connection refused): check -base-url or ANTHROPIC_BASE_URL and the network\n"},
		{"a chat cassette with -api messages", []string{"run", "-api", "messages", "-cassette", "demo"}, nil, 2,
			"agentvcr run: -api messages: the cassette was recorded in chat\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			code, _, stderr := runIn(t.TempDir(), tt.vars, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if diff := cmp.Diff(tt.stderr, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
