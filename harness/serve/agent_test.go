package serve_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// Our own agent against the server: these tests need the demo sandbox, and
// package demo imports harness, hence the external test package.

// servedCassettes reads base cassettes of the repository by name.
func servedCassettes(t testing.TB, names ...string) []serve.ServedCassette {
	t.Helper()
	var out []serve.ServedCassette
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "cassettes", n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, serve.ServedCassette{Name: n, Data: data})
	}
	return out
}

// startServer serves a router over loopback for the test's duration.
func serveOn(t testing.TB, s *serve.Server) string {
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
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	loop := agent.Loop{Client: &agent.Client{BaseURL: baseURL, Model: model, APIKey: "dummy", Format: chat.Format}, Tools: tools.Default(ws, tools.ZH)}
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
	cassettes := servedCassettes(t, demo.ScriptDemo, demo.ScriptParallel)
	body := &serve.CassetteRouter{Cassettes: cassettes}
	turn := &serve.CassetteRouter{Cassettes: cassettes, Match: serve.MatchTurn}
	bodyBase := serveOn(t, &serve.Server{Route: body.Route})
	turnBase := serveOn(t, &serve.Server{Route: turn.Route})

	want, err := runAgent(ctx, t, serve.ScenarioURL(bodyBase, demo.ScriptParallel), demo.ScriptParallel, demo.Prompt(tools.ZH))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 8 {
		t.Fatalf("the parallel replay has %d messages, want 8:\n%s", len(want), strings.Join(transcript(want), "\n"))
	}
	tests := []struct {
		reason, base, model, prompt string
	}{
		{"the plain base URL serves every cassette, picked by body", bodyBase, demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"a case URL serves its cassette", serve.ScenarioURL(bodyBase, demo.ScriptParallel), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"a quirk variant: the same transcript", serve.ScenarioURL(bodyBase, demo.ScriptParallel+"~interleaved_calls"), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"ids dropped: the body match expects the made-up ids", serve.ScenarioURL(bodyBase, demo.ScriptParallel+"~ids_dropped"), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"a composed quirk: ids dropped, one-rune arguments, comments, CRLF", serve.ScenarioURL(bodyBase, demo.ScriptParallel+"~ids_dropped+args_one_rune+comments+crlf"), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"by turn, another prompt and model still get the recorded replies", serve.ScenarioURL(turnBase, demo.ScriptParallel), "some-model", "something else entirely"},
		{"by turn on the plain URL, the model picks the cassette", turnBase, demo.ScriptParallel, "something else entirely"},
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
	router := &serve.CassetteRouter{Cassettes: servedCassettes(t, demo.ScriptDemo, demo.ScriptParallel)}
	s := &serve.Server{Route: router.Route, Journal: &syncWriter{w: &journal}}
	base := serveOn(t, s)
	const clients = 24
	var wg sync.WaitGroup
	errs := make([]error, clients)
	lens := make([]int, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{demo.ScriptDemo, demo.ScriptParallel}[i%2]
			msgs, err := runAgent(context.Background(), t, serve.ScenarioURL(base, name), name, demo.Prompt(tools.ZH))
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
	router := &serve.CassetteRouter{Cassettes: servedCassettes(t, demo.ScriptParallel)}
	base := serveOn(t, &serve.Server{Route: router.Route, Log: &log})
	_, err := runAgent(context.Background(), t, serve.ScenarioURL(base, demo.ScriptParallel), demo.ScriptParallel, "a prompt never recorded")
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
