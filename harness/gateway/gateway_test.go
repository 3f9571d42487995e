package gateway

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

const gatewayKey = "sk-test-gateway-0123456789"

// testScripts are the gateway's scripts in these tests: "demo" (text and a
// glob call, then a grep call) and "parallel" (two calls in one turn). The
// demo package holds the real conversations.
func testScripts() []Script {
	glob := ScriptCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}
	grep := ScriptCall{Name: "grep", Arguments: `{"pattern":"divide","glob":"**/*.js"}`}
	return []Script{
		{Name: "demo", Turns: []ScriptTurn{{Text: "先看看仓库里有哪些 JS 文件。", Calls: []ScriptCall{glob}}, {Calls: []ScriptCall{grep}}}},
		{Name: "parallel", Turns: []ScriptTurn{{Calls: []ScriptCall{glob, grep}}}},
	}
}

// postChat posts a chat-completions request to the gateway and returns the
// status and body.
func postChat(t *testing.T, base, key string, body any) (int, string) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, base+"/chat/completions", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(out)
}

func TestGatewayRepliesByConversationState(t *testing.T) {
	gw := New(gatewayKey, testScripts()...)
	base, stop := gw.Start()
	defer stop()
	msgs := []agent.Message{{Role: "user", Content: "hi"}}
	status, body := postChat(t, base, gatewayKey, map[string]any{"model": "demo", "messages": msgs, "stream": true})
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	turn, err := chat.Merge(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	want := testScripts()[0].Turns[0]
	if turn.Text != want.Text || len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Function.Arguments != want.Calls[0].Arguments || turn.FinishReason != "tool_calls" {
		t.Errorf("first reply merged to %+v, want the script's first reply %+v", turn, want)
	}
	// The same conversation one turn on gets the second reply.
	msgs = append(msgs,
		agent.Message{Role: "assistant", ToolCalls: turn.ToolCalls},
		agent.Message{Role: "tool", ToolCallID: turn.ToolCalls[0].ID, Content: "main.js"})
	_, body = postChat(t, base, gatewayKey, map[string]any{"model": "demo", "messages": msgs, "stream": true})
	turn, err = chat.Merge(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := turn.ToolCalls[0].Function.Name; got != "grep" {
		t.Errorf("second reply calls %q, want grep", got)
	}
	if n := gw.received(); n != 2 {
		t.Errorf("received() = %d, want 2", n)
	}
}

func TestGatewayRefusals(t *testing.T) {
	gw := New(gatewayKey, append(testScripts(), ErrorScripts()...)...)
	base, stop := gw.Start()
	defer stop()
	user := []agent.Message{{Role: "user", Content: "hi"}}
	orphan := []agent.Message{{Role: "user", Content: "hi"}, {Role: "assistant", ToolCalls: []agent.ToolCall{{ID: "call_1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: "{}"}}}}}
	tests := []struct {
		reason string
		key    string
		body   any
		status int
		code   string
	}{
		{"no key", "", map[string]any{"model": "demo", "messages": user, "stream": true}, 401, "invalid_api_key"},
		{"wrong key", "sk-wrong", map[string]any{"model": "demo", "messages": user, "stream": true}, 401, "invalid_api_key"},
		{"not streaming", gatewayKey, map[string]any{"model": "demo", "messages": user}, 400, "invalid_request_error"},
		{"body not JSON", gatewayKey, "not json", 400, "invalid_request_error"},
		{"unknown model", gatewayKey, map[string]any{"model": "nosuch", "messages": user, "stream": true}, 404, "model_not_found"},
		{"call without a result", gatewayKey, map[string]any{"model": "demo", "messages": orphan, "stream": true}, 400, "invalid_request_error"},
		{"script exhausted", gatewayKey, map[string]any{"model": "http_429", "messages": append(orphan[:1:1], agent.Message{Role: "assistant", Content: "x"}), "stream": true}, 400, "invalid_request_error"},
		{"scripted 429", gatewayKey, map[string]any{"model": "http_429", "messages": user, "stream": true}, 429, "scripted_error"},
		{"scripted 503", gatewayKey, map[string]any{"model": "http_503", "messages": user, "stream": true}, 503, "scripted_error"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			status, body := postChat(t, base, tt.key, tt.body)
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("error body is not JSON: %q", body)
			}
			if status != tt.status || e.Error.Code != tt.code || e.Error.Message == "" {
				t.Errorf("got %d %q %q, want %d %q and a message", status, e.Error.Code, e.Error.Message, tt.status, tt.code)
			}
		})
	}
	refused := gw.Refused()
	if len(refused) != 1 || !errors.Is(refused[0], ErrInvariant) || !errors.Is(refused[0], agent.ErrInvalidMessages) {
		t.Errorf("Refused() = %v, want one invariant violation", refused)
	}
}
