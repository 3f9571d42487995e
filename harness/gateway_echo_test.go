package harness

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// firstTurn asks the gateway for a script's first reply and returns the
// conversation after it: the user message, the assistant message as the loop
// builds it (echoes included) and one tool result per call.
func firstTurn(t *testing.T, base, model string) []agent.Message {
	t.Helper()
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "why are the tests red?"}}
	status, body := chat(t, base, gatewayKey, map[string]any{"model": model, "messages": msgs, "stream": true})
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	turn, err := agent.MergeStream(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls, ReasoningContent: turn.ReasoningContent})
	for _, c := range turn.ToolCalls {
		msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: c.ID, Content: "ok"})
	}
	return msgs
}

func TestGatewayChecksEchoes(t *testing.T) {
	gw := NewGateway(gatewayKey, EchoScripts(tools.EN)...)
	base, stop := gw.Start()
	defer stop()
	tests := []struct {
		reason string
		model  string
		edit   func(assistant *agent.Message)
		status int
		body   string
	}{
		{"every signature echoed", ScriptThoughtSignature, func(*agent.Message) {}, http.StatusOK, ""},
		{"the signature dropped", ScriptThoughtSignature, func(m *agent.Message) { m.ToolCalls[0].ExtraContent = nil }, http.StatusBadRequest,
			"Function call is missing a thought_signature in functionCall parts (function call glob, message index 1, position 0)"},
		{"the signature changed", ScriptThoughtSignature, func(m *agent.Message) {
			m.ToolCalls[0].ExtraContent = json.RawMessage(`{"google":{"thought_signature":"AAAA"}}`)
		}, http.StatusBadRequest, "Invalid thought signature (function call glob, message index 1, position 0)"},
		{"the unsigned parallel call needs nothing", ScriptThoughtSignature, func(m *agent.Message) { m.ToolCalls[1].ExtraContent = nil }, http.StatusOK, ""},
		{"reasoning_content echoed", ScriptReasoningEcho, func(*agent.Message) {}, http.StatusOK, ""},
		{"reasoning_content dropped", ScriptReasoningEcho, func(m *agent.Message) { m.ReasoningContent = "" }, http.StatusBadRequest,
			"Missing reasoning_content field in the assistant message at message index 1"},
		{"reasoning_content changed", ScriptReasoningEcho, func(m *agent.Message) { m.ReasoningContent += " " }, http.StatusBadRequest,
			"reasoning_content of the assistant message at message index 1 is not the one the model sent"},
	}
	refusals := 0
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			msgs := firstTurn(t, base, tt.model)
			tt.edit(&msgs[1])
			status, body := chat(t, base, gatewayKey, map[string]any{"model": tt.model, "messages": msgs, "stream": true})
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
			if tt.status == http.StatusOK {
				return
			}
			refusals++
			var e struct {
				Error struct{ Message, Code string }
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.body, e.Error.Message); diff != "" {
				t.Errorf("error message (-want +got):\n%s", diff)
			}
		})
	}
	refused := gw.Refused()
	if len(refused) != refusals {
		t.Fatalf("Refused() has %d errors, want %d: %v", len(refused), refusals, refused)
	}
	for _, err := range refused {
		if !errors.Is(err, ErrEchoMissing) {
			t.Errorf("refusal %v does not wrap ErrEchoMissing", err)
		}
	}
}

// The echo scripts stream what they want back: the reasoning as
// reasoning_content (apart from the text) and the signature on the first call
// only.
func TestEchoScriptsStream(t *testing.T) {
	for _, s := range EchoScripts(tools.ZH) {
		body := strings.Join(StreamReply(s.Name, s.Name, 0, s.Replies[0]), "")
		turn, err := agent.MergeStream(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Replies[0]
		var sigs []string
		for _, c := range turn.ToolCalls {
			sigs = append(sigs, thoughtSignature(c.ExtraContent))
		}
		var want []string
		for _, c := range r.Calls {
			want = append(want, c.ThoughtSignature)
		}
		got := []any{turn.Text, turn.Reasoning, turn.ReasoningContent, sigs}
		if diff := cmp.Diff([]any{r.Text, r.Reasoning, r.Reasoning, want}, got); diff != "" {
			t.Errorf("%s: text, reasoning, reasoning_content, signatures (-want +got):\n%s", s.Name, diff)
		}
	}
}
