package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// servedCassettes reads base cassettes of the repository by name.
func servedCassettes(t testing.TB, names ...string) []ServedCassette {
	t.Helper()
	var out []ServedCassette
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "cassettes", n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ServedCassette{Name: n, Data: data})
	}
	return out
}

// startServer serves a router over loopback for the test's duration.
func serveOn(t testing.TB, s *Server) string {
	t.Helper()
	base, stop, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	return base
}

// runAgent runs our agent's loop on a fresh sandbox against baseURL, as
// the model named, and returns the conversation.
func runAgent(ctx context.Context, t testing.TB, baseURL, model, prompt string) ([]agent.Message, error) {
	t.Helper()
	dir := t.TempDir()
	if err := WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	loop := agent.Loop{Client: &agent.Client{BaseURL: baseURL, Model: model, APIKey: "dummy"}, Tools: tools.Default(ws, tools.ZH)}
	return loop.Run(ctx, []agent.Message{
		{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)},
		{Role: agent.RoleUser, Content: prompt},
	})
}

// transcript is what a replay must reproduce: roles, texts, call names and
// arguments (ids vary when a quirk drops them).
func transcript(msgs []agent.Message) []string {
	var out []string
	for _, m := range msgs {
		line := m.Role + ": " + m.Content
		for _, c := range m.ToolCalls {
			line += fmt.Sprintf(" [%s %s]", c.Function.Name, c.Function.Arguments)
		}
		out = append(out, line)
	}
	return out
}

func TestServeReplaysToTheAgent(t *testing.T) {
	ctx := context.Background()
	cassettes := servedCassettes(t, ScriptDemo, ScriptParallel)
	body := &CassetteRouter{Cassettes: cassettes}
	turn := &CassetteRouter{Cassettes: cassettes, Match: MatchTurn}
	bodyBase := serveOn(t, &Server{Route: body.Route})
	turnBase := serveOn(t, &Server{Route: turn.Route})

	want, err := runAgent(ctx, t, ScenarioURL(bodyBase, ScriptParallel), ScriptParallel, DemoPrompt(tools.ZH))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 8 {
		t.Fatalf("the parallel replay has %d messages, want 8:\n%s", len(want), strings.Join(transcript(want), "\n"))
	}
	tests := []struct {
		reason, base, model, prompt string
	}{
		{"the plain base URL serves every cassette, picked by body", bodyBase, ScriptParallel, DemoPrompt(tools.ZH)},
		{"a case URL serves its cassette", ScenarioURL(bodyBase, ScriptParallel), ScriptParallel, DemoPrompt(tools.ZH)},
		{"a quirk variant: the same transcript", ScenarioURL(bodyBase, ScriptParallel+"~interleaved_calls"), ScriptParallel, DemoPrompt(tools.ZH)},
		{"ids dropped: the body match expects the made-up ids", ScenarioURL(bodyBase, ScriptParallel+"~ids_dropped"), ScriptParallel, DemoPrompt(tools.ZH)},
		{"by turn, another prompt and model still get the recorded replies", ScenarioURL(turnBase, ScriptParallel), "some-model", "something else entirely"},
		{"by turn on the plain URL, the model picks the cassette", turnBase, ScriptParallel, "something else entirely"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := runAgent(ctx, t, tt.base, tt.model, tt.prompt)
			if err != nil {
				t.Fatal(err)
			}
			w, g := transcript(want), transcript(got)
			w[1], g[1] = "", "" // the prompt
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("transcript (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServeManyClientsAtOnce(t *testing.T) {
	var journal bytes.Buffer
	router := &CassetteRouter{Cassettes: servedCassettes(t, ScriptDemo, ScriptParallel)}
	s := &Server{Route: router.Route, Journal: &syncWriter{w: &journal}}
	base := serveOn(t, s)
	const clients = 24
	var wg sync.WaitGroup
	errs := make([]error, clients)
	lens := make([]int, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{ScriptDemo, ScriptParallel}[i%2]
			msgs, err := runAgent(context.Background(), t, ScenarioURL(base, name), name, DemoPrompt(tools.ZH))
			errs[i], lens[i] = err, len(msgs)
		}()
	}
	wg.Wait()
	requests := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
		requests += map[int]int{8: 3, 9: 4}[lens[i]]
	}
	lines := strings.Split(strings.TrimSpace(journal.String()), "\n")
	if len(lines) != requests || requests != clients/2*3+clients/2*4 {
		t.Errorf("journal has %d lines, the clients sent %d requests (want %d)", len(lines), requests, clients/2*3+clients/2*4)
	}
}

// syncWriter lets a bytes.Buffer be read by the test while being written.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestServeMissAnswers404WithTheDiff(t *testing.T) {
	var log bytes.Buffer
	router := &CassetteRouter{Cassettes: servedCassettes(t, ScriptParallel)}
	base := serveOn(t, &Server{Route: router.Route, Log: &log})
	_, err := runAgent(context.Background(), t, ScenarioURL(base, ScriptParallel), ScriptParallel, "a prompt never recorded")
	var httpErr *agent.HTTPError
	if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusNotFound {
		t.Fatalf("err = %v, want a 404", err)
	}
	head := `scenario "parallel": request 1 (POST /v1/chat/completions): no unused recorded interaction matches the request; nearest unused is interaction 1 of 3 (-recorded +sent):`
	for _, want := range []string{head, `- "content": "帮我看看这个仓库，测试为什么红",`, `+ "content": "a prompt never recorded",`} {
		if !strings.Contains(squeeze(log.String()), want) {
			t.Errorf("stderr lacks %q:\n%s", want, log.String())
		}
	}
	// The 404's JSON message is the same text (the client keeps 512 bytes).
	body := strings.TrimSpace(httpErr.Body)
	if !strings.HasPrefix(body, `{"error":{"code":"agentvcr_no_match","message":"scenario \"parallel\": request 1 (POST /v1/chat/completions)`) {
		t.Errorf("404 body = %s", body)
	}
}

// squeeze collapses the runs of spaces and tabs in each line of a cmp.Diff
// into one space.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

func TestServeRoutesAndModels(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, ScriptDemo, ScriptParallel)}
	base := serveOn(t, &Server{Route: router.Route})
	root := strings.TrimSuffix(base, "/v1")
	tests := []struct {
		reason, method, path string
		status               int
		body                 string
	}{
		{"the plain URL lists every recorded model", "GET", "/v1/models", 200,
			`{"object":"list","data":[{"id":"demo","object":"model","created":1767225600,"owned_by":"agentvcr"},{"id":"parallel","object":"model","created":1767225600,"owned_by":"agentvcr"}]}`},
		{"a case URL lists its cassette's", "GET", "/s/parallel/v1/models", 200,
			`{"object":"list","data":[{"id":"parallel","object":"model","created":1767225600,"owned_by":"agentvcr"}]}`},
		{"an unknown case", "GET", "/s/nope/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"nope\": no such case; served cassettes: demo, parallel","type":"invalid_request_error"}}`},
		{"an unknown quirk", "GET", "/s/demo~nope/v1/models", 404,
			`{"error":{"code":"not_found","message":"case \"demo~nope\": unknown quirk \"nope\": no such case; quirks: ` + quirkNames() + `","type":"invalid_request_error"}}`},
		{"an unknown path", "GET", "/v1/embeddings", 404,
			`{"error":{"code":"not_found","message":"no route for GET /v1/embeddings: use POST .../v1/chat/completions or GET .../v1/models","type":"invalid_request_error"}}`},
		{"the wrong method", "GET", "/s/demo/v1/chat/completions", 405,
			`{"error":{"code":"invalid_request_error","message":"GET is not allowed on /v1/chat/completions","type":"invalid_request_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, root+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			if resp.StatusCode != tt.status || strings.TrimSpace(body.String()) != tt.body {
				t.Errorf("%s %s: %d %s\nwant %d %s", tt.method, tt.path, resp.StatusCode, body.String(), tt.status, tt.body)
			}
		})
	}
}

func TestServeJournal(t *testing.T) {
	var journal bytes.Buffer
	router := &CassetteRouter{Cassettes: servedCassettes(t, ScriptParallel), Match: MatchTurn, Fault: Fault{Kind: FaultReset, Turn: 2}}
	base := serveOn(t, &Server{Route: router.Route, Journal: &journal})
	for _, b := range []string{turn1Body, turn2Body, `{"model":"parallel","messages":[{"role":"assistant"},{"role":"assistant"},{"role":"assistant"}]}`} {
		resp := postChat(context.Background(), t, ScenarioURL(base, ScriptParallel), b)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	var got []JournalEntry
	dec := json.NewDecoder(&journal)
	for dec.More() {
		var e JournalEntry
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	miss := "scenario \"parallel\": request 4 (POST /v1/chat/completions): no unused recorded interaction matches the request; nearest unused is interaction 3 of 3 (-recorded +sent):\n"
	want := []JournalEntry{
		{Seq: 1, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 1, Status: 200, From: "parallel interaction 1", Request: json.RawMessage(turn1Body)},
		{Seq: 2, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 2, Status: 200, From: "parallel interaction 2", Fault: "reset@2", Request: json.RawMessage(turn2Body)},
		{Seq: 3, Case: "parallel", Method: "POST", Path: "/v1/chat/completions", Model: "parallel", Turn: 4, Status: 404, Error: miss,
			Request: json.RawMessage(`{"model":"parallel","messages":[{"role":"assistant"},{"role":"assistant"},{"role":"assistant"}]}`)},
	}
	opts := cmp.Options{
		cmpopts.IgnoreUnexported(JournalEntry{}),
		// The miss's diff is tested elsewhere; here only its head.
		cmp.Transformer("head", func(e JournalEntry) JournalEntry {
			if head, _, ok := strings.Cut(e.Error, "\n"); ok {
				e.Error = head + "\n"
			}
			return e
		}),
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
}
