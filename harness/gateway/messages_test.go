package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// postMessages posts a raw Messages request body and returns the status
// and body.
func postMessages(t *testing.T, root, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, root+"/v1/messages", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// The agent's loop, speaking Messages, plays the same script to the end
// through the gateway: the same calls and texts as the chat format.
func TestGatewayMessagesPlaysScript(t *testing.T) {
	gw := New(gatewayKey, testScripts()...)
	base, stop := gw.Start()
	defer stop()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	client := &agent.Client{BaseURL: strings.TrimSuffix(base, "/v1"), APIKey: gatewayKey, Model: "demo", Format: messages.Format}
	var calls []string
	loop := agent.Loop{Client: client, Tools: tools.Default(ws, tools.ZH), MaxTurns: 2, OnEvent: func(e agent.Event) {
		if e.Kind == agent.KindCall {
			calls = append(calls, e.Call.Name+" "+e.Call.Arguments)
		}
	}}
	msgs, err := loop.Run(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "hi"}})
	if !errors.Is(err, agent.ErrTurnLimit) {
		t.Fatalf("Run: %v (want the turn limit: the test script has no final answer)", err)
	}
	want := []string{`glob {"pattern":"**/*.js"}`, `grep {"pattern":"divide","glob":"**/*.js"}`}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if msgs[1].Content != "先看看仓库里有哪些 JS 文件。" || !strings.HasPrefix(msgs[1].ToolCalls[0].ID, "toolu_") {
		t.Errorf("first assistant message = %+v", msgs[1])
	}
	if r := gw.Refused(); len(r) != 0 {
		t.Errorf("Refused() = %v", r)
	}
}

func TestGatewayMessagesRefusals(t *testing.T) {
	gw := New(gatewayKey, append(testScripts(), ErrorScripts()...)...)
	base, stop := gw.Start()
	defer stop()
	root := strings.TrimSuffix(base, "/v1")
	user := `{"role":"user","content":"hi"}`
	asked := `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"glob","input":{}},{"type":"text","text":"late"}]}`
	answer := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"main.js"}]}`
	body := func(model string, stream bool, msgs ...string) string {
		b, _ := json.Marshal(map[string]any{"model": model, "stream": stream, "max_tokens": 10})
		return strings.TrimSuffix(string(b), "}") + `,"messages":[` + strings.Join(msgs, ",") + `]}`
	}
	tests := []struct {
		reason string
		key    string
		body   string
		status int
		typ    string
	}{
		{"no key", "", body("demo", true, user), 401, "authentication_error"},
		{"a Bearer key is not an x-api-key", "Bearer " + gatewayKey, body("demo", true, user), 401, "authentication_error"},
		{"not streaming", gatewayKey, body("demo", false, user), 400, "invalid_request_error"},
		{"body not JSON", gatewayKey, "not json", 400, "invalid_request_error"},
		{"unknown model", gatewayKey, body("nosuch", true, user), 404, "not_found_error"},
		{"text after a tool_use", gatewayKey, body("demo", true, user, asked, answer), 400, "invalid_request_error"},
		{"scripted 429", gatewayKey, body("http_429", true, user), 429, "rate_limit_error"},
		{"scripted 503", gatewayKey, body("http_503", true, user), 503, "api_error"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			status, got := postMessages(t, root, tt.key, tt.body)
			var e struct {
				Type  string `json:"type"`
				Error struct{ Type, Message string }
			}
			if err := json.Unmarshal([]byte(got), &e); err != nil {
				t.Fatalf("error body is not JSON: %q", got)
			}
			if status != tt.status || e.Type != "error" || e.Error.Type != tt.typ || e.Error.Message == "" {
				t.Errorf("got %d %s %q %q, want %d %q and a message", status, e.Type, e.Error.Type, e.Error.Message, tt.status, tt.typ)
			}
		})
	}
	refused := gw.Refused()
	if len(refused) != 1 || !errors.Is(refused[0], ErrInvariant) ||
		!strings.Contains(refused[0].Error(), `block 1: text block after tool_use "toolu_1" (nothing may follow a tool_use)`) {
		t.Errorf("Refused() = %v, want the text after the tool_use", refused)
	}
}
