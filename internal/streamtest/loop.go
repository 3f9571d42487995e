package streamtest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// Tools returns a registry with one tool, echo, that returns its text;
// onRun, when set, runs first with the call's context.
func Tools(t *testing.T, lang tools.Lang, onRun func(ctx context.Context)) *tools.Registry {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(ws, lang)
	err = reg.Register(tools.Tool{
		Name:        "echo",
		Description: "Return the text given. Example: {\"text\":\"hi\"}.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text to return."}},"required":["text"],"additionalProperties":false}`),
		ReadOnly:    true,
		Run: func(ctx context.Context, ws *tools.Workspace, args json.RawMessage) (string, error) {
			if onRun != nil {
				onRun(ctx)
			}
			var a struct{ Text string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			return a.Text + "\nsecond line", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// Start is a conversation's first two messages: the system prompt and a
// user question.
func Start() []agent.Message {
	return []agent.Message{{Role: agent.RoleSystem, Content: agent.SystemPrompt(tools.ZH)}, {Role: agent.RoleUser, Content: "why are the tests red?"}}
}

// Defs is one tool's definition, as a request carries it.
var Defs = []tools.Definition{{Type: "function", Function: tools.Function{
	Name: "echo", Description: "Echo the text.", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
}}}
