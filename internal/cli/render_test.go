package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// Reasoning is shown on a line of its own, labelled, dimmed on a terminal,
// and as a "reasoning" event with -json; it never looks like the answer.
func TestRenderReasoning(t *testing.T) {
	ev := agent.Event{Kind: agent.KindReasoning, Turn: 1, Text: "  look at calc.js\n"}
	tests := []struct {
		reason string
		r      renderer
		want   string
	}{
		{"zh, no colour", renderer{lang: tools.ZH}, "思考：look at calc.js\n"},
		{"en, no colour", renderer{lang: tools.EN}, "thinking: look at calc.js\n"},
		{"on a terminal: dimmed", renderer{lang: tools.EN, color: true}, "\x1b[2mthinking: look at calc.js\x1b[0m\n"},
		{"-json", renderer{json: true}, `{"kind":"reasoning","turn":1,"text":"  look at calc.js\n"}` + "\n"},
		{"empty reasoning prints nothing", renderer{lang: tools.EN}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var b strings.Builder
			tt.r.w = &b
			e := ev
			if tt.want == "" {
				e.Text = " \n"
			}
			tt.r.event(e)
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
