package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/google/go-cmp/cmp"
)

// agentPlain is a good agent that asks for no stream on any request: it
// reads chat completions' non-streamed answers, waits out a 429 and
// retries a 500 once.
const agentPlain = "plain_good"

// testPlainAgent plays agentPlain.
func testPlainAgent(r *agentRun) int {
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
	client := r.client()
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	for tries := 0; tries < 6; tries++ {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": testTools, "stream": false})
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		var answer struct {
			Choices []struct {
				Message struct {
					Content   string           `json:"content"`
					ToolCalls []agent.ToolCall `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		err = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			secs, _ := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
			r.sleep(time.Duration(secs * float64(time.Second)))
			continue
		case resp.StatusCode == http.StatusInternalServerError:
			continue
		case resp.StatusCode != http.StatusOK || err != nil || len(answer.Choices) != 1:
			fmt.Fprintln(r.stderr, "test agent: status", resp.Status, err)
			return 1
		}
		m := answer.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			fmt.Fprintln(r.stdout, m.Content)
			return 0
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: m.Content, ToolCalls: m.ToolCalls})
		for _, c := range m.ToolCalls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok " + c.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// An agent that asks for no stream on any request gets one line in the
// first case, SKIPPED, and every stream case SKIPPED for that reason
// without being run; the 429 and 500 faults still run and are judged. In
// process and as a process; and without the first case, a stream case
// says the same of itself.
func TestAgentAskingForNoStreamIsSkipped(t *testing.T) {
	t.Parallel()
	cases, err := SelectCases(Cases(), []string{"clean", "crlf", "truncated", "echo_signature", "fault_429", "fault_500", "fault_stall"})
	if err != nil {
		t.Fatal(err)
	}
	line := `the agent asks for no stream ("stream": false on each of its 2 requests): conform checks how an agent merges streamed turns, so every case that serves a stream is SKIPPED and only the 429 and 500 faults run; turn streaming on to run them`
	notRun := `not run: the agent asks for no stream ("stream": false on every request of clean), and this case serves a stream`
	want := []string{
		"clean SKIPPED " + line,
		"crlf SKIPPED " + notRun,
		"truncated SKIPPED " + notRun,
		"echo_signature SKIPPED " + notRun,
		"fault_429 SUCCESS retried and finished (3 requests; requests 2, 3 without a stream)",
		"fault_500 SUCCESS retried and finished (3 requests; requests 2, 3 without a stream)",
		"fault_stall SKIPPED " + notRun,
	}
	for _, tt := range []struct {
		reason  string
		agent   AgentFunc
		command Command
	}{
		{reason: "in process", agent: testAgentFunc(agentPlain)},
		{reason: "as a process", command: testAgentCommand(t, agentPlain)},
	} {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: tt.agent, Command: tt.command, Cases: cases,
				retryAfter: testRetryAfter, Timeout: slow * 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range results {
				got = append(got, fmt.Sprintf("%s %s %s", r.Case.ID, r.Status, r.Details))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, r := range results[1:] {
				if r.Status == Skipped && len(r.Requests) > 0 {
					t.Errorf("%s: SKIPPED, but the agent ran (%d requests)", r.Case.ID, len(r.Requests))
				}
			}
		})
	}
	t.Run("without the first case", func(t *testing.T) {
		t.Parallel()
		only, _ := SelectCases(Cases(), []string{"crlf"})
		results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: testAgentFunc(agentPlain), Cases: only, Timeout: slow * 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if r := results[0]; r.Status != Skipped || r.Details != line {
			t.Errorf("%s %q, want SKIPPED %q", r.Status, r.Details, line)
		}
	})
}
