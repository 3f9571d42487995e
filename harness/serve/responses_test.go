package serve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// runResponses is runAgent speaking the Responses API.
func runResponses(ctx context.Context, t testing.TB, baseURL, model, prompt string) ([]agent.Message, error) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	loop := agent.Loop{Client: &agent.Client{BaseURL: baseURL, Model: model, APIKey: "dummy", Format: responses.Format}, Tools: tools.Default(ws, tools.ZH)}
	return loop.Run(ctx, []agent.Message{
		{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)},
		{Role: agent.RoleUser, Content: prompt},
	})
}

// TestServeResponses: a cassette recorded in the Responses format is served
// on /v1/responses, by body and by turn, plain and through Responses
// quirks; the conversation is the chat-completions one, ids included.
func TestServeResponses(t *testing.T) {
	ctx := context.Background()
	want, err := runAgent(ctx, t, serve.ScenarioURL(serveOn(t, &serve.Server{Route: (&serve.CassetteRouter{Cassettes: servedCassettes(t, demo.ScriptParallel)}).Route}), demo.ScriptParallel),
		demo.ScriptParallel, demo.Prompt(tools.ZH))
	if err != nil {
		t.Fatal(err)
	}
	served := servedCassettes(t, "responses/"+demo.ScriptParallel)
	served[0].Name = demo.ScriptParallel
	body := serveOn(t, &serve.Server{Route: (&serve.CassetteRouter{Cassettes: served}).Route})
	turn := serveOn(t, &serve.Server{Route: (&serve.CassetteRouter{Cassettes: served, Match: serve.MatchTurn}).Route})
	tests := []struct {
		reason, base, model, prompt string
	}{
		{"the plain base URL, by body", body, demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"a case URL", serve.ScenarioURL(body, demo.ScriptParallel), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"ids that rotate on every event", serve.ScenarioURL(body, demo.ScriptParallel+"~responses_ids_rotate"), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"an empty response.completed", serve.ScenarioURL(body, demo.ScriptParallel+"~responses_completed_empty"), demo.ScriptParallel, demo.Prompt(tools.ZH)},
		{"by turn: the assistant turns of the input counted", serve.ScenarioURL(turn, demo.ScriptParallel), "some-model", "something else entirely"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := runResponses(ctx, t, tt.base, tt.model, tt.prompt)
			if err != nil {
				t.Fatal(err)
			}
			w, g := transcript(want), transcript(got)
			w[1], g[1] = "", ""
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("transcript (-chat +responses):\n%s", diff)
			}
		})
	}
	// A chat-completions quirk does not apply to a Responses cassette.
	_, err = runResponses(ctx, t, serve.ScenarioURL(body, demo.ScriptParallel+"~interleaved_calls"), demo.ScriptParallel, demo.Prompt(tools.ZH))
	if err == nil || !strings.Contains(err.Error(), "quirk does not apply to this stream") {
		t.Errorf("a chat quirk on a Responses cassette: err = %v", err)
	}
}
