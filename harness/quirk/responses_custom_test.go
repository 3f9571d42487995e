package quirk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire/responses"
	"github.com/google/go-cmp/cmp"
)

// Every benign Responses quirk carries a custom tool call through: the
// stream transformed merges to the same calls, the custom one included.
func TestResponsesQuirksCarryCustomCalls(t *testing.T) {
	turn := agent.Turn{Text: "Patching.", ToolCalls: []agent.ToolCall{
		{ID: "call_p", Type: "custom", Function: agent.FunctionCall{Name: "apply_patch", Arguments: "*** Begin Patch\n*** End Patch"}},
		streamtest.Call("call_g", "glob", `{"pattern":"*"}`),
	}}
	clean := []byte(strings.Join(responses.Write("m", "custom", 0, &turn), ""))
	base, err := responses.Merge(bytes.NewReader(clean))
	if err != nil || len(base.ToolCalls) != 2 || base.ToolCalls[0].Type != "custom" {
		t.Fatalf("clean stream: %+v, %v", base, err)
	}
	applied := 0
	for _, q := range OfAPI(responses.Format.Name) {
		if !q.Benign {
			continue
		}
		body, err := q.Apply(clean, 7)
		if errors.Is(err, ErrNotApplicable) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		applied++
		got, err := responses.Merge(bytes.NewReader(body))
		if err != nil {
			t.Errorf("%s: %v", q.Name, err)
			continue
		}
		if diff := cmp.Diff(base.ToolCalls, got.ToolCalls); diff != "" {
			t.Errorf("%s: calls (-clean +quirk):\n%s", q.Name, diff)
		}
	}
	if applied < 10 {
		t.Errorf("only %d benign quirks applied", applied)
	}
}
