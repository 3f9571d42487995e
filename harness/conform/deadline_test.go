package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// The retrying agents: they send the same first request again after a
// stream that fails, retrySleep after each failure, as opencode retries a
// stream that failed midway with backoff.
const (
	agentRetrySix     = "retry_six"     // gives up with exit 1 after six attempts
	agentRetryForever = "retry_forever" // never gives up
)

// retrySleep is how long the retrying agents wait between attempts: six
// attempts take at least five of them, past retryTimeout.
const (
	retrySleep   = slow * 600 * time.Millisecond
	retryTimeout = slow * 2 * time.Second
)

// testRetryingAgent plays the retrying agent of mode: it offers testTools,
// and goes on with a turn that merges as the good agent does.
func testRetryingAgent(r *agentRun, mode string) int {
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	for attempt := 1; attempt < 100; attempt++ {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": testTools, "stream": true})
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		turn, err := chat.Merge(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("status %s", resp.Status)
		}
		switch {
		case err != nil && mode == agentRetrySix && attempt == 6:
			fmt.Fprintf(r.stderr, "test agent: gave up after %d attempts: %v\n", attempt, err)
			return 1
		case err != nil:
			r.sleep(retrySleep)
			if r.ctx.Err() != nil {
				return 1
			}
			continue
		case len(turn.ToolCalls) == 0:
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: turn.ToolCalls})
		for _, c := range turn.ToolCalls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok " + c.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many attempts")
	return 1
}

// durations matches the durations in a case's details, which these tests
// do not compare.
var durations = regexp.MustCompile(`\b[0-9][0-9.hm]*s\b`)

// An agent that retries a broken stream past -timeout is not killed while
// its attempts keep coming: it gives up on its own after its sixth, and
// the details say how many requests came, past -timeout. One that retries
// forever is killed at -retry-timeout, which the details name. In process
// and as a process.
func TestRetriesMoveTheDeadline(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"midstream_error"})
	tests := []struct {
		reason   string
		agent    AgentFunc
		command  Command
		status   Status
		timedOut bool
		details  string // with every duration as D
	}{
		{reason: "six attempts in process", agent: testAgentFunc(agentRetrySix), status: Success,
			details: "gave up with exit 1 after 6 attempts (stderr: test agent: gave up after 6 attempts: stream error: Provider returned error (code 502)); it ran D, past -timeout D, as its 6 requests kept coming (the last D after its start; each moves the deadline to -timeout after it, up to -retry-timeout D)"},
		{reason: "six attempts as a process", command: testAgentCommand(t, agentRetrySix), status: Success,
			details: "gave up with exit 1 after 6 attempts (stderr: test agent: gave up after 6 attempts: stream error: Provider returned error (code 502)); it ran D, past -timeout D, as its 6 requests kept coming (the last D after its start; each moves the deadline to -timeout after it, up to -retry-timeout D)"},
		{reason: "retrying forever in process", agent: testAgentFunc(agentRetryForever), status: Failure, timedOut: true,
			details: "the agent was still running after -timeout D: killed (N requests); its N requests (the last D after its start) kept moving the deadline to -timeout D after each, up to -retry-timeout D: killed there"},
		{reason: "retrying forever as a process", command: testAgentCommand(t, agentRetryForever), status: Failure, timedOut: true,
			details: "the agent was still running after -timeout D: killed (N requests); its N requests (the last D after its start) kept moving the deadline to -timeout D after each, up to -retry-timeout D: killed there"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			bound := slow * 6 * time.Second
			if !tt.timedOut {
				bound = time.Minute // never reached: the agent gives up first
			}
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: tt.agent, Command: tt.command, Cases: only,
				Timeout: retryTimeout, RetryTimeout: bound})
			if err != nil {
				t.Fatal(err)
			}
			r := results[0]
			n := len(r.Requests)
			details := durations.ReplaceAllString(strings.ReplaceAll(r.Details, fmt.Sprintf("%d requests", n), "N requests"), "D")
			if tt.status == Success {
				details = durations.ReplaceAllString(r.Details, "D")
			}
			if r.Status != tt.status || r.TimedOut != tt.timedOut || details != tt.details {
				t.Errorf("%s %q (timed out %v)\nwant %s %q (timed out %v)", r.Status, r.Details, r.TimedOut, tt.status, tt.details, tt.timedOut)
			}
			// The attempts are retrySleep apart at least: more than
			// fit in -timeout show that the deadline moved.
			fit := int(retryTimeout/retrySleep) + 1
			if want := 6; !tt.timedOut && n != want {
				t.Errorf("%d requests, want %d", n, want)
			}
			if n <= fit {
				t.Errorf("%d requests: no more than fit in -timeout (%d)", n, fit)
			}
		})
	}
}

// A stall case keeps its own limit: requests that keep coming do not move
// it. The agent gives each request 100 ms and sends the next one, forever.
func TestStallLimitDoesNotMove(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"fault_stall"})
	poster := func(ctx context.Context, env []string, _, _ io.Writer) int {
		var url string
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "OPENAI_BASE_URL="); ok {
				url = strings.TrimRight(v, "/") + "/chat/completions"
			}
		}
		body, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "tools": testTools,
			"messages": []map[string]string{{"role": "user", "content": "look around"}}})
		for ctx.Err() == nil {
			rctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			req, _ := http.NewRequestWithContext(rctx, http.MethodPost, url, bytes.NewReader(body))
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			<-rctx.Done()
			cancel()
		}
		return 1
	}
	stall := slow * time.Second
	results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: poster, Cases: only,
		Timeout: stall / 2, StallTimeout: stall, RetryTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	want := "the agent did not give up on a stalled stream within -stall-timeout " + stall.String() + ": killed"
	if r.Status != Failure || r.Details != want || !r.TimedOut || len(r.Requests) < 3 {
		t.Errorf("%s %q (timed out %v, %d requests), want FAILURE %q after 3 requests or more", r.Status, r.Details, r.TimedOut, len(r.Requests), want)
	}
}
