package conform

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// slow scales the tests' timeouts (4 under the race detector).
const slow = racetest.Slow

// funcPatience is how long the in-process test agents (testAgentFunc) wait
// on a silent stream: what fault_stall waits out in every run of a whole
// catalog. conform writes each answer at once, so a legitimate stream is
// never silent for long; a stall is.
const funcPatience = slow * 500 * time.Millisecond

// The purpose-built agents: the test binary re-executed with
// CONFORM_TEST_AGENT set to one of these modes plays a small agent that
// offers read_file, grep and write_file, and follows conform's turns.
const (
	agentGood       = "good"       // merges like our accumulator; waits out a 429 once
	agentPositional = "positional" // keeps calls in a slice indexed by the stream's index
	agentIDStart    = "id_start"   // starts a new call on every piece that has an "id", even ""
	agentDropsTrunc = "dropstrunc" // takes a stream cut short for a finished turn
	agentTwice      = "twice"      // answers every call twice
	agentExit       = "exit"       // exits 3 at once
	agentSilent     = "silent"     // exits 0 without calling the server
	agentHang       = "hang"       // sleeps without calling the server
	agentWriter     = "writer"     // offers only write_file
	agentDated      = "dated"      // a good agent whose system prompt carries the time
	agentWrongPath  = "wrongpath"  // posts to /completions (the legacy endpoint) under the base URL
	agentEager      = "eager"      // a good agent that retries a 429 at once
	agentPatient    = "patient"    // a good agent that waits for a stream forever
)

const agentModeEnv = "CONFORM_TEST_AGENT"

func TestMain(m *testing.M) {
	if mode := os.Getenv(agentModeEnv); mode != "" {
		os.Exit(testAgent(&agentRun{ctx: context.Background(), getenv: os.Getenv, stdout: os.Stdout, stderr: os.Stderr,
			patience: slow * 3 * time.Second}, mode))
	}
	os.Exit(racetest.RunWaiting(m))
}

// testAgentCommand runs this test binary as the agent of mode: for what
// needs a real process (signals, process groups, leftovers, a real exit
// code and stderr); testAgentFunc runs the same agent in process.
func testAgentCommand(t *testing.T, mode string) Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Command{Path: exe, Env: append(os.Environ(), agentModeEnv+"="+mode)}
}

// testAgentFunc runs the agent of mode in the test process.
func testAgentFunc(mode string) AgentFunc {
	return testAgentFuncWaiting(mode, funcPatience)
}

// testAgentFuncWaiting is testAgentFunc with another patience.
func testAgentFuncWaiting(mode string, patience time.Duration) AgentFunc {
	return func(ctx context.Context, env []string, stdout, stderr io.Writer) int {
		vars := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		return testAgent(&agentRun{ctx: ctx, getenv: func(k string) string { return vars[k] }, stdout: stdout, stderr: stderr,
			patience: patience}, mode)
	}
}

// agentRun is what a purpose-built agent runs with: where it reads its
// variables and writes its output, the context that ends it, and how long
// a stream may stay silent before it gives up (its give-up on a stall).
type agentRun struct {
	ctx            context.Context
	getenv         func(string) string
	stdout, stderr io.Writer
	patience       time.Duration
}

// client is the agent's HTTP client: each request ends with the run's
// context; a stream silent for patience fails (none when patience is 0);
// headers may take 20 s (a loaded machine is slow, not stalled).
func (r *agentRun) client() *http.Client {
	next := contextTransport{r.ctx}
	if r.patience == 0 {
		return &http.Client{Transport: next}
	}
	return &http.Client{Transport: &agent.LiveTransport{Next: next, HeaderTimeout: slow * 20 * time.Second, IdleTimeout: r.patience}}
}

// sleep waits d or until the run's context ends.
func (r *agentRun) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.ctx.Done():
	}
}

// contextTransport sends each request under its own context and ctx
// both: either ending ends it.
type contextTransport struct{ ctx context.Context }

func (c contextTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	context.AfterFunc(c.ctx, cancel)
	return http.DefaultTransport.RoundTrip(req.WithContext(ctx))
}

var testTools = json.RawMessage(`[
 {"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}}},
 {"type":"function","function":{"name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}},
 {"type":"function","function":{"name":"grep","parameters":{"type":"object","properties":{"pattern":{"type":"string"},"glob":{"type":"string"}},"required":["pattern"]}}}
]`)

func testAgent(r *agentRun, mode string) int {
	if strings.HasPrefix(mode, "messages_") {
		return testMessagesAgent(r, mode)
	}
	if strings.HasPrefix(mode, "responses_") {
		return testResponsesAgent(r, mode)
	}
	if strings.HasPrefix(mode, "gemini_") {
		return testGeminiAgent(r, mode)
	}
	if strings.HasPrefix(mode, "real_") {
		return testRealAgent(r, mode)
	}
	if strings.HasPrefix(mode, "rule_") {
		return testRuleAgent(r, mode)
	}
	if strings.HasPrefix(mode, "vacuous_") {
		return testVacuousAgent(r, mode)
	}
	if strings.HasPrefix(mode, "retry_") {
		return testRetryingAgent(r, mode)
	}
	if mode == agentPlain {
		return testPlainAgent(r)
	}
	if strings.HasPrefix(mode, agentCompleter) {
		return testCompleter(r, mode)
	}
	switch mode {
	case agentExit:
		fmt.Fprintln(r.stderr, "test agent: giving up at once")
		return 3
	case agentSilent:
		return 0
	case agentHang:
		r.sleep(time.Hour)
		return 0
	}
	tools := testTools
	if mode == agentWriter {
		tools = json.RawMessage(`[{"type":"function","function":{"name":"write_file","parameters":{"type":"object"}}},{"type":"function","function":{"name":"run_shell","parameters":{"type":"object"}}}]`)
	}
	if mode == agentPatient {
		r.patience = 0
	}
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
	if mode == agentWrongPath {
		url = strings.TrimSuffix(url, "/chat/completions") + "/completions"
	}
	system := "You are a test agent."
	if mode == agentDated {
		system += " Now: " + time.Now().Format(time.RFC3339Nano)
	}
	msgs := []agent.Message{{Role: "system", Content: system}, {Role: "user", Content: "look around"}}
	for range 4 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": tools, "stream": true})
		var wait func(time.Duration)
		switch mode {
		case agentGood:
			wait = r.sleep
		case agentEager:
			wait = func(time.Duration) {}
		}
		resp, ok := r.postStream(func() (*http.Response, error) {
			return client.Post(url, "application/json", bytes.NewReader(body))
		}, wait)
		if !ok {
			return 1
		}
		var turn *agent.Turn
		var err error
		switch mode {
		case agentPositional:
			turn, err = positionalMerge(resp.Body, false)
		case agentIDStart:
			turn, err = positionalMerge(resp.Body, true)
		default:
			turn, err = chat.Merge(resp.Body)
		}
		resp.Body.Close()
		if mode == agentDropsTrunc && errors.Is(err, agent.ErrTruncatedStream) {
			err = nil
		}
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		if len(turn.ToolCalls) == 0 {
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: turn.ToolCalls, Thinking: turn.Thinking})
		for _, c := range turn.ToolCalls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok " + c.Function.Name})
			if mode == agentTwice {
				msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok again"})
			}
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// postStream posts with post; after a 429, when wait is not nil, it closes
// that answer, calls wait with its Retry-After (seconds, decimal ones
// too: tests shorten the wait) and posts once more. It says on stderr why
// it got no 200 (ok false).
func (r *agentRun) postStream(post func() (*http.Response, error), wait func(time.Duration)) (resp *http.Response, ok bool) {
	resp, err := post()
	if err == nil && resp.StatusCode == http.StatusTooManyRequests && wait != nil {
		resp.Body.Close()
		secs, _ := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
		wait(time.Duration(secs * float64(time.Second)))
		resp, err = post()
	}
	if err != nil {
		fmt.Fprintln(r.stderr, "test agent:", err)
		return nil, false
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		fmt.Fprintln(r.stderr, "test agent: status", resp.Status)
		return nil, false
	}
	return resp, true
}

// positionalMerge is the bug this agent is built around: calls live in a
// slice at the position the stream's index names (a missing index is 0),
// so an index from 1 leaves a hole, -1 panics and shared indexes merge
// calls. Otherwise it is careful: ids it must make up are call_<position>,
// a stream error or a cut stream is an error. With idStarts a piece that
// has an "id" member, even "", starts a new call after the others, and a
// piece without one adds to the last (a client that asks whether the id
// is there, not whether it is empty, as some did before Alibaba's
// DashScope sent "id": "" on every continuation piece).
func positionalMerge(r io.Reader, idStarts bool) (*agent.Turn, error) {
	var turn agent.Turn
	var calls []agent.ToolCall
	finished := false
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(strings.TrimSuffix(sc.Text(), "\r"), "data:")
		data = strings.TrimSpace(data)
		if !ok || data == "" {
			continue
		}
		if data == "[DONE]" {
			finished = true
			break
		}
		var chunk struct {
			Error   json.RawMessage `json:"error"`
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    int     `json:"index"`
						ID       *string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, err
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			return nil, fmt.Errorf("stream error: %s", chunk.Error)
		}
		for _, ch := range chunk.Choices {
			turn.Text += ch.Delta.Content
			if ch.FinishReason != "" {
				finished = true
			}
			for _, tc := range ch.Delta.ToolCalls {
				at := tc.Index
				if idStarts {
					if tc.ID != nil || len(calls) == 0 {
						calls = append(calls, agent.ToolCall{Type: "function"})
					}
					at = len(calls) - 1
				}
				for len(calls) <= at {
					calls = append(calls, agent.ToolCall{Type: "function"})
				}
				c := &calls[at]
				if c.ID == "" && tc.ID != nil {
					c.ID = *tc.ID
				}
				if c.Function.Name == "" {
					c.Function.Name = tc.Function.Name
				}
				c.Function.Arguments += tc.Function.Arguments
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !finished {
		return nil, agent.ErrTruncatedStream
	}
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = fmt.Sprintf("call_%d", i)
		}
	}
	turn.ToolCalls = calls
	return &turn, nil
}

// agentFolder is the folder the test agents work in (Options.Folder): it
// has no file the probe would name, so their path arguments are probe
// strings, whatever files this package gains.
const agentFolder = "testdata/agentfolder"
