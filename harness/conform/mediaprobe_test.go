package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

// Codex's tools (schemas cut to what the probe reads): it reads
// files through shell; view_image is its only tool whose name says it
// reads.
const codexTools = `[
 {"type":"function","function":{"name":"shell","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}},"workdir":{"type":"string"},"timeout_ms":{"type":"number"}},"required":["command"]}}},
 {"type":"function","function":{"name":"update_plan","parameters":{"type":"object","properties":{"plan":{"type":"array","items":{"type":"object"}}},"required":["plan"]}}},
 {"type":"function","function":{"name":"view_image","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}
]`

// chatToolAgent is a good chat-completions agent offering tools (a JSON
// array of chat tools), in process: it answers every call "ok" and prints
// the text of the turn without calls.
func chatToolAgent(tools string) AgentFunc {
	return func(ctx context.Context, env []string, stdout, stderr io.Writer) int {
		var url string
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "OPENAI_BASE_URL="); ok {
				url = strings.TrimRight(v, "/") + "/chat/completions"
			}
		}
		msgs := []agent.Message{{Role: "user", Content: "look around"}}
		for range 4 {
			body, _ := json.Marshal(map[string]any{"model": "m", "messages": msgs, "tools": json.RawMessage(tools), "stream": true})
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				fmt.Fprintln(stderr, "test agent:", err)
				return 1
			}
			turn, err := chat.Merge(resp.Body)
			resp.Body.Close()
			if err != nil {
				fmt.Fprintln(stderr, "test agent:", err)
				return 1
			}
			if len(turn.ToolCalls) == 0 {
				fmt.Fprintln(stdout, turn.Text)
				return 0
			}
			msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: turn.ToolCalls})
			for _, c := range turn.ToolCalls {
				msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok"})
			}
		}
		return 1
	}
}

// A probe whose only tool that reads reads media says so in the first
// case's details, with the -call of the agent's shell tool that would
// read the folder's file; the other cases do not repeat it.
func TestProbeOfMediaToolsSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, _ := SelectCases(Cases(), []string{"clean", "crlf"})
	results, err := Run(context.Background(), Options{Folder: dir, Agent: chatToolAgent(codexTools), Cases: cases, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`clean SUCCESS 2 calls re-sent and answered; exit 0; but the probe could pick no tool that reads text, only view_image, whose name says it reads media: its calls on the folder's files fail, so the probe exercises no tool that reads; -call 'shell={"command":["cat","README.md"]}' would call the agent's shell tool with a read-only command instead (conform calls a shell only when told)`,
		"crlf SUCCESS 2 calls re-sent and answered; exit 0",
	}
	var got []string
	for _, r := range results {
		got = append(got, fmt.Sprintf("%s %s %s", r.Case.ID, r.Status, r.Details))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The note's variants: a shell tool taking a string, none at all, a tool
// that reads text beside the media one (picked instead: no note), a -call
// (the user chose: no note), an empty folder (the command lists it).
func TestMediaNote(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "it's.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	image := Tool{Name: "view_image", Schema: path}
	command := Tool{Name: "shell_command", Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"login":{"type":"boolean"}},"required":["login","command"]}`)}
	const head = "; but the probe could pick no tool that reads text, only view_image, whose name says it reads media: its calls on the folder's files fail, so the probe exercises no tool that reads"
	tests := []struct {
		reason string
		tools  []Tool
		specs  []CallSpec
		dir    string
		want   string
	}{
		{"a shell tool that takes a string", []Tool{image, command}, nil, dir,
			head + `; -call 'shell_command={"login":true,"command":"cat it'\''s.txt"}' would call the agent's shell tool with a read-only command instead (conform calls a shell only when told)`},
		{"no shell tool", []Tool{image}, nil, dir, head + "; name a tool that reads text with -call NAME[=ARGS_JSON]"},
		{"an empty folder", []Tool{image, command}, nil, t.TempDir(),
			head + `; -call 'shell_command={"login":true,"command":"ls"}' would call the agent's shell tool with a read-only command instead (conform calls a shell only when told)`},
		{"a tool that reads text too", []Tool{image, {Name: "read_file", Schema: path}}, nil, dir, ""},
		{"-call names the media tool", []Tool{image, command}, []CallSpec{{Name: "view_image"}}, dir, ""},
	}
	for _, tt := range tests {
		conv, err := chatFormat.build(Request{Model: "m", Tools: tt.tools}, tt.specs, tt.dir)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if conv.note != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.reason, conv.note, tt.want)
		}
	}
}

// A tool that reads media is picked only when no other tool that reads
// is: read_file is called twice, not view_image and read_file.
func TestPickToolsLeavesMediaToolsLast(t *testing.T) {
	path := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	got := pickTools([]Tool{{Name: "view_image", Schema: path}, {Name: "read_file", Schema: path}})
	if want := []CallSpec{{Name: "read_file"}}; !cmp.Equal(want, got) {
		t.Errorf("picked %v, want %v", got, want)
	}
}
