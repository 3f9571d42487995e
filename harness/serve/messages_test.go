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
	"github.com/agentvcr/agentvcr/wire/messages"
)

// The demo recorded in the Messages format is served on POST .../v1/messages,
// plain and under a Messages quirk: the agent's loop, speaking Messages with
// the server's root (or a case's) as its base URL, replays it to the end.
func TestServerServesMessagesCassette(t *testing.T) {
	served := servedCassettes(t, "messages/demo")
	served[0].Name = "demo" // a case name has no slash
	router := &serve.CassetteRouter{Cassettes: served}
	base := strings.TrimSuffix(serveOn(t, &serve.Server{Route: router.Route}), "/v1")
	want := []string{"glob", "grep", "read_file"}
	for _, root := range []string{base, base + "/s/demo", base + "/s/demo~messages_ping_before_delta"} {
		dir := t.TempDir()
		if err := demo.WriteSandbox(dir); err != nil {
			t.Fatal(err)
		}
		ws, err := tools.NewWorkspace(dir)
		if err != nil {
			t.Fatal(err)
		}
		var calls []string
		loop := agent.Loop{Client: &agent.Client{BaseURL: root, APIKey: "any", Model: "demo", Format: messages.Format},
			Tools: tools.Default(ws, tools.ZH), OnEvent: func(e agent.Event) {
				if e.Kind == agent.KindCall {
					calls = append(calls, e.Call.Name)
				}
			}}
		msgs, err := loop.Run(context.Background(), []agent.Message{
			{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)}, {Role: agent.RoleUser, Content: demo.Prompt(tools.ZH)}})
		if err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		if diff := cmp.Diff(want, calls); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", root, diff)
		}
		if !strings.HasPrefix(msgs[len(msgs)-1].Content, "测试红的原因") {
			t.Errorf("%s: last message %q", root, msgs[len(msgs)-1].Content)
		}
	}
}
