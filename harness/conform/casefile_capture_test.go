package conform

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/record"
)

// dashScopeTurn is a turn in the shape Alibaba's DashScope sends (its
// OpenAI-compatible mode, as opencode's PR 40969 and symfony/ai's PR 2220
// quote it): every continuation piece of a call repeats "id": "" and
// "type", where OpenAI leaves them out. The catalog has no case of it.
const dashScopeTurn = `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Reading two things."}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_a1","type":"function","index":0,"function":{"name":"read_file","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"","type":"function","index":0,"function":{"arguments":"{\"path\": \"README.md\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_b2","type":"function","index":1,"function":{"name":"grep","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"","type":"function","index":1,"function":{"arguments":"{\"pattern\": \"conform\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`

// TestCaseFromLiveCapture is the workflow end to end, offline: a scripted
// upstream sends a shape the catalog lacks through the recording proxy
// (what agentvcr record and proxy -o run); the cassette's turn becomes a
// case file (agentvcr case new); conform -cases passes an agent that
// merges it and fails one that takes every piece with an "id" for a new
// call; and the case serves the captured body byte for byte.
// printFirstAnswer is an agent that sends one request offering
// read_file and grep, prints the body of the answer as it came, and stops.
func printFirstAnswer(ctx context.Context, env []string, stdout, stderr io.Writer) int {
	base := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "OPENAI_BASE_URL="); ok {
			base = v
		}
	}
	body := `{"model":"qwen","stream":true,"messages":[{"role":"user","content":"look"}],"tools":[` +
		`{"type":"function","function":{"name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}},` +
		`{"type":"function","function":{"name":"grep","parameters":{"type":"object","properties":{"pattern":{"type":"string"}}}}}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/chat/completions", strings.NewReader(body))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer resp.Body.Close()
	io.Copy(stdout, resp.Body)
	return 0
}

func TestCaseFromLiveCapture(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, dashScopeTurn)
	}))
	defer upstream.Close()
	rec := filepath.Join(t.TempDir(), "dashscope.yaml")
	p, err := record.NewProxy(upstream.URL+"/v1", rec, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(p)
	resp, err := http.Post(proxy.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"qwen","stream":true,"messages":[{"role":"user","content":"look"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	proxy.Close()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}

	if _, _, err := CassetteTurn(rec, 0); err == nil || err.Error() != rec+": our merger takes every streamed answer as it is, with no warning: name the exchange with -turn N" {
		t.Errorf("CassetteTurn(0): %v", err)
	}
	stream, n, err := CassetteTurn(rec, 1)
	if err != nil || n != 1 || string(stream) != dashScopeTurn {
		t.Fatalf("CassetteTurn(1): %d, %v, body %q", n, err, stream)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "dashscope_empty_ids.txtar")
	data, cf, err := NewCaseFile(path, CaseFileFields{ID: "dashscope_empty_ids", API: "chat",
		Doc: `every continuation piece repeats "id": "" and "type"`, Seen: "Alibaba DashScope: anomalyco/opencode PR 40969, symfony/ai PR 2220"}, stream)
	if err != nil {
		t.Fatal(err)
	}
	if cf.Derived() != "benign" {
		t.Errorf("derived %q, want benign", cf.Derived())
	}
	want := "# made by agentvcr case new from a captured stream: read it before you commit it\n" +
		"id: dashscope_empty_ids\napi: chat\ndoc: every continuation piece repeats \"id\": \"\" and \"type\"\n" +
		"seen: Alibaba DashScope: anomalyco/opencode PR 40969, symfony/ai PR 2220\n-- turn.sse --\n" + dashScopeTurn
	if string(data) != want {
		t.Errorf("case file:\n%s\nwant:\n%s", data, want)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cases, _, err := ReadCaseFiles(chatFormat, Cases(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if string(cases[0].Captured) != dashScopeTurn {
		t.Errorf("the case serves %q, want the captured body", cases[0].Captured)
	}
	// What the agent reads on its first request is the captured body, byte
	// for byte: an agent that prints what it received shows it.
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: printFirstAnswer, Cases: cases, Timeout: slow * 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if string(results[0].Stdout) != dashScopeTurn {
		t.Errorf("the agent received:\n%s\nwant the captured body:\n%s", results[0].Stdout, dashScopeTurn)
	}
	all := append(SelectCasesOrDie(t, Cases(), "clean"), cases...)
	for _, tt := range []struct {
		agent   string
		want    Status
		details string
	}{
		{agentGood, Success, "2 calls re-sent and answered; exit 0"},
		{agentIDStart, Failure, "request 2: the assistant message does not re-send the merged calls; conform stopped the agent there"},
	} {
		results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(tt.agent), Cases: all, Timeout: slow * 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if r := results[1]; r.Status != tt.want || !strings.HasPrefix(r.Details, tt.details) {
			t.Errorf("%s agent: %s %q, want %s %q", tt.agent, r.Status, r.Details, tt.want, tt.details)
		}
		if results[0].Status != Success {
			t.Errorf("%s agent, clean: %s %s", tt.agent, results[0].Status, results[0].Details)
		}
	}
}
