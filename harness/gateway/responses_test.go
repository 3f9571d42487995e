package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// TestGatewaySpeaksResponses: the same scripts over /v1/responses give the
// loop the same conversation as over /v1/chat/completions, call ids
// included, and every request keeps the invariants.
func TestGatewaySpeaksResponses(t *testing.T) {
	gw := New(gatewayKey, testScripts()...)
	base, stop := gw.Start()
	defer stop()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range testScripts() {
		t.Run(script.Name, func(t *testing.T) {
			run := func(api *agent.Format) ([]agent.Message, []agent.Event) {
				var events []agent.Event
				l := agent.Loop{
					Client:   &agent.Client{BaseURL: base, APIKey: gatewayKey, Model: script.Name, Format: api},
					Tools:    tools.Default(ws, tools.EN),
					MaxTurns: len(script.Turns),
					OnEvent:  func(e agent.Event) { events = append(events, e) },
				}
				msgs, err := l.Run(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "why red?"}})
				if err != nil && !errors.Is(err, agent.ErrTurnLimit) {
					t.Fatalf("%s: %v", api.Name, err)
				}
				return msgs, events
			}
			chatMsgs, chatEvents := run(chat.Format)
			respMsgs, respEvents := run(responses.Format)
			if diff := cmp.Diff(chatMsgs, respMsgs); diff != "" {
				t.Errorf("messages (-chat +responses):\n%s", diff)
			}
			if diff := cmp.Diff(chatEvents, respEvents); diff != "" {
				t.Errorf("events (-chat +responses):\n%s", diff)
			}
		})
	}
	if refused := gw.Refused(); len(refused) > 0 {
		t.Errorf("refused: %v", refused)
	}
}

func TestGatewayResponsesRefusals(t *testing.T) {
	gw := New(gatewayKey, testScripts()...)
	base, stop := gw.Start()
	defer stop()
	tests := []struct {
		reason     string
		body       string
		wantStatus int
		wantBody   string
	}{
		{"a function_call without its output breaks the invariants",
			`{"model":"demo","input":[{"type":"message","role":"user","content":"x"},{"type":"function_call","call_id":"c1","name":"glob","arguments":"{}"},{"type":"message","role":"user","content":"y"}],"stream":true}`,
			http.StatusBadRequest, `"message":"messages: invalid messages: message 1: tool call \"c1\" has no result"`},
		{"an output for no call breaks them too",
			`{"model":"demo","input":[{"type":"message","role":"user","content":"x"},{"type":"function_call_output","call_id":"c9","output":"z"}],"stream":true}`,
			http.StatusBadRequest, `"message":"messages: invalid messages: message 1: tool result \"c9\" does not answer a call of the assistant message before it"`},
		{"an item type the gateway does not read",
			`{"model":"demo","input":[{"type":"reasoning","id":"rs_1"}],"stream":true}`,
			http.StatusBadRequest, `"message":"body is not a valid request: input 0: item type \"reasoning\" is not one agentvcr reads"`},
		{"content parts are read as text",
			`{"model":"demo","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"why "},{"type":"input_text","text":"red?"}]}],"stream":true}`,
			http.StatusOK, `event: response.created`},
		{"a bare string input is one user message",
			`{"model":"parallel","input":"why red?","stream":true}`,
			http.StatusOK, `"name":"grep"`},
		{"a request that does not stream",
			`{"model":"demo","input":"x"}`,
			http.StatusBadRequest, `set \"stream\": true`},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(http.MethodPost, base+"/responses", strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+gatewayKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, err = io.Copy(&b, resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != tt.wantStatus || !strings.Contains(b.String(), tt.wantBody) {
			t.Errorf("%s: %d %s\nwant %d and %s", tt.reason, resp.StatusCode, b.String(), tt.wantStatus, tt.wantBody)
		}
	}
	if got := len(gw.Refused()); got != 2 {
		t.Errorf("%d refusals recorded, want the 2 invariant breaks", got)
	}
}
