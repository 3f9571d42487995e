package gateway

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// firstTurn asks the gateway for a script's first reply and returns the
// conversation after it: the user message, the assistant message as the loop
// builds it (echoes included) and one tool result per call.
func firstTurn(t *testing.T, base, model string) []agent.Message {
	t.Helper()
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "why are the tests red?"}}
	status, body := postChat(t, base, gatewayKey, map[string]any{"model": model, "messages": msgs, "stream": true})
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	turn, err := chat.Merge(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls, Thinking: turn.Thinking})
	for _, c := range turn.ToolCalls {
		msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: c.ID, Content: "ok"})
	}
	return msgs
}

// Echo scripts of the tests' own: Gemini's (the first of two parallel calls
// signed) and DeepSeek's (reasoning on a tool-call turn).
const (
	scriptSigned    = "signed"
	scriptReasoning = "reasoning"
)

func echoScripts() []Script {
	return []Script{
		{Name: scriptSigned, Turns: []ScriptTurn{
			{Text: "Both.", Calls: []ScriptCall{{Name: "glob", Arguments: `{"pattern":"*"}`, ThoughtSignature: "c2lnLTE="}, {Name: "grep", Arguments: `{"pattern":"x"}`}}},
			{Text: "Done."},
		}},
		{Name: scriptReasoning, Turns: []ScriptTurn{
			{Reasoning: "思考：先列文件。", Calls: []ScriptCall{{Name: "glob", Arguments: `{"pattern":"*"}`}}},
			{Reasoning: "not needed back", Text: "Done."},
		}},
	}
}

func TestGatewayChecksEchoes(t *testing.T) {
	gw := New(gatewayKey, echoScripts()...)
	base, stop := gw.Start()
	defer stop()
	tests := []struct {
		reason string
		model  string
		edit   func(assistant *agent.Message)
		status int
		body   string
	}{
		{"every signature echoed", scriptSigned, func(*agent.Message) {}, http.StatusOK, ""},
		{"the signature dropped", scriptSigned, func(m *agent.Message) { m.ToolCalls[0].ExtraContent = nil }, http.StatusBadRequest,
			"Function call is missing a thought_signature in functionCall parts (function call glob, message index 1, position 0)"},
		{"the signature changed", scriptSigned, func(m *agent.Message) {
			m.ToolCalls[0].ExtraContent = json.RawMessage(`{"google":{"thought_signature":"AAAA"}}`)
		}, http.StatusBadRequest, "Invalid thought signature (function call glob, message index 1, position 0)"},
		{"the unsigned parallel call needs nothing", scriptSigned, func(m *agent.Message) { m.ToolCalls[1].ExtraContent = nil }, http.StatusOK, ""},
		{"reasoning_content echoed", scriptReasoning, func(*agent.Message) {}, http.StatusOK, ""},
		{"reasoning_content dropped", scriptReasoning, func(m *agent.Message) { m.Thinking = nil }, http.StatusBadRequest,
			"Missing reasoning_content field in the assistant message at message index 1"},
		{"reasoning_content changed", scriptReasoning, func(m *agent.Message) { m.Thinking[0].Text += " " }, http.StatusBadRequest,
			"reasoning_content of the assistant message at message index 1 is not the one the model sent"},
	}
	refusals := 0
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			msgs := firstTurn(t, base, tt.model)
			tt.edit(&msgs[1])
			status, body := postChat(t, base, gatewayKey, map[string]any{"model": tt.model, "messages": msgs, "stream": true})
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
	for _, s := range echoScripts() {
		body := strings.Join(Stream(chat.Format, s.Name, s.Name, 0, s.Turns[0]), "")
		turn, err := chat.Merge(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Turns[0]
		var sigs []string
		for _, c := range turn.ToolCalls {
			sigs = append(sigs, thoughtSignature(c.ExtraContent))
		}
		var want []string
		for _, c := range r.Calls {
			want = append(want, c.ThoughtSignature)
		}
		echo := agent.Message{Role: agent.RoleAssistant, ToolCalls: turn.ToolCalls, Thinking: turn.Thinking}.ReasoningContent()
		got := []any{turn.Text, turn.ReasoningText(), echo, sigs}
		if diff := cmp.Diff([]any{r.Text, r.Reasoning, r.Reasoning, want}, got); diff != "" {
			t.Errorf("%s: text, reasoning, reasoning_content, signatures (-want +got):\n%s", s.Name, diff)
		}
	}
}
