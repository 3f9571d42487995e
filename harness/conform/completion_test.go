package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

// agentCompleter ends its run only by calling attempt_completion, as the
// Cline family does: a text answer gets "this run is not complete" back.
// agentCompleterAsks answers that call as any other and ends at the text
// answer that follows it.
const (
	agentCompleter     = "completer"
	agentCompleterAsks = "completer_asks"
)

// completionSchema is attempt_completion's parameters, as Cline declares
// them (cut to what the probe reads).
const completionSchema = `{"type":"object","properties":{"result":{"type":"string"},"command":{"type":"string"}},"required":["result"]}`

// testCompleter plays agentCompleter or agentCompleterAsks: testTools and
// attempt_completion.
func testCompleter(r *agentRun, mode string) int {
	var tools []json.RawMessage
	json.Unmarshal(testTools, &tools)
	tools = append(tools, json.RawMessage(`{"type":"function","function":{"name":"attempt_completion","parameters":`+completionSchema+`}}`))
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	completed := false
	for range 6 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": tools, "stream": true})
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		turn, err := chat.Merge(resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("status %s", resp.Status)
		}
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: turn.ToolCalls})
		switch {
		case len(turn.ToolCalls) == 0 && completed:
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		case len(turn.ToolCalls) == 0:
			msgs = append(msgs, agent.Message{Role: "user", Content: "[ERROR] this run is not complete: call attempt_completion with your result"})
			continue
		}
		for _, c := range turn.ToolCalls {
			if c.Function.Name == "attempt_completion" && mode == agentCompleterAsks {
				completed = true
			} else if c.Function.Name == "attempt_completion" {
				var args struct{ Result string }
				json.Unmarshal([]byte(c.Function.Arguments), &args)
				fmt.Fprintln(r.stdout, args.Result)
				return 0
			}
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok " + c.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns, and the run is not complete")
	return 1
}

// An agent that ends its run by calling its completion tool gets a
// conclusion that calls it, and passes, in process and as a process; the
// conclusion's call is under the case's transform as every turn is.
func TestConclusionCallsTheCompletionTool(t *testing.T) {
	t.Parallel()
	cases, err := SelectCases(Cases(), []string{"clean", "index_plus_1", "args_one_rune", "crlf", "midstream_error"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"clean SUCCESS 2 calls re-sent and answered; exit 0",
		"index_plus_1 SUCCESS 2 calls re-sent and answered; exit 0",
		"args_one_rune SUCCESS 2 calls re-sent and answered; exit 0",
		"crlf SUCCESS 2 calls re-sent and answered; exit 0",
		"midstream_error SUCCESS gave up with exit 1 after 1 attempt (stderr: test agent: stream error: Provider returned error (code 502))",
	}
	for _, tt := range []struct {
		reason  string
		agent   AgentFunc
		command Command
	}{
		{reason: "in process", agent: testAgentFunc(agentCompleter)},
		{reason: "as a process", command: testAgentCommand(t, agentCompleter)},
		{reason: "asking for text after the call", agent: testAgentFunc(agentCompleterAsks)},
	} {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			results, err := Run(context.Background(), Options{Folder: agentFolder, Agent: tt.agent, Command: tt.command, Cases: cases, Timeout: slow * 10 * time.Second})
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
			requests, stdout := 2, "probe \"q\" \\ 中文\n" // the completion's generated result
			if tt.reason == "asking for text after the call" {
				requests, stdout = 3, probeConclusion+"\n"
			}
			if r := results[0]; len(r.Requests) != requests || string(r.Stdout) != stdout {
				t.Errorf("clean: %d requests, stdout %q; want %d, %q", len(r.Requests), r.Stdout, requests, stdout)
			}
		})
	}
}

// In every format the conclusion calls the completion tool the agent
// offers, with arguments from its schema, and a last turn of text alone
// follows it; without one the conclusion is text alone. The names that
// end a run, and those that do not.
func TestConclusionTurnsInEveryFormat(t *testing.T) {
	read := Tool{Name: "read_file", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}
	done := Tool{Name: "attempt_completion", Schema: json.RawMessage(completionSchema)}
	for _, f := range Formats() {
		conv, err := f.build(Request{Model: "m", Tools: []Tool{read, done}}, nil, "")
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if len(conv.turns) != 3 || len(conv.plain) != 3 {
			t.Fatalf("%s: %d turns, %d plain ones; want 3", f.Name, len(conv.turns), len(conv.plain))
		}
		var got []string
		for i, body := range conv.turns[1:] {
			turn, err := f.Merge(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s turn %d: %v", f.Name, i+2, err)
			}
			s := turn.Text
			for _, c := range turn.ToolCalls {
				s += " | " + c.Function.Name + " " + c.Function.Arguments
			}
			got = append(got, s)
		}
		want := []string{probeConclusion + ` | attempt_completion {"result":"probe \"q\" \\ 中文"}`, probeConclusion}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", f.Name, diff)
		}
		plain, err := f.build(Request{Model: "m", Tools: []Tool{read}}, nil, "")
		if err != nil || len(plain.turns) != 2 {
			t.Errorf("%s without a completion tool: %v, want 2 turns", f.Name, err)
		}
	}
	for name, want := range map[string]bool{
		"attempt_completion": true, "submit_and_exit": true, "finish": true, "submit": true, "task_complete": true, "FinishTask": true,
		"complete_todo": false, "ExitPlanMode": false, "autocomplete": false, "read_file": false, "get_completions": false,
	} {
		if _, got := completionTool([]Tool{{Name: name}}); got != want {
			t.Errorf("completionTool(%s) = %v, want %v", name, got, want)
		}
	}
}
