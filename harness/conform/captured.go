package conform

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// buildCaptured is the conversation of a case file's captured turn
// (Case.Captured), built from the agent's first request as build builds
// the probe's: the captured stream as it is for the turn with the calls,
// then the probe's conclusion (and its last turn when the agent ends its
// runs with a tool). want is what our merger makes of the stream; a
// stream it refuses has none, and the case is broken. Every call the
// stream merges into must name a tool the agent offers: a capture of
// another agent's tools would test nothing of this one.
func (f Format) buildCaptured(first Request, stream []byte) (*conversation, error) {
	model := cmp.Or(first.Model, "conform")
	conclusion := agent.Turn{Text: probeConclusion}
	if done, ok := completionTool(first.Tools); ok {
		args, err := GenerateArguments(done.Schema, false)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", done.Name, err)
		}
		conclusion.ToolCalls = []agent.ToolCall{{Type: "function", Function: agent.FunctionCall{Name: done.Name, Arguments: args}}}
	}
	conv := &conversation{turns: [][]byte{stream, []byte(strings.Join(f.Write(model, probeScript, 1, &conclusion), ""))}, clamp: true}
	if len(conclusion.ToolCalls) > 0 {
		last := agent.Turn{Text: probeConclusion}
		conv.turns = append(conv.turns, []byte(strings.Join(f.Write(model, probeScript, 2, &last), "")))
	}
	turn, err := f.Merge(bytes.NewReader(stream))
	if err != nil {
		return conv, nil // broken: nothing of the turn may be sent on
	}
	var offered []string
	for _, t := range first.Tools {
		offered = append(offered, t.Name)
	}
	for _, tc := range turn.ToolCalls {
		if !slices.Contains(offered, tc.Function.Name) {
			return nil, fmt.Errorf("the captured turn calls %s, which the agent does not offer (it offers %s): capture a turn of this agent", tc.Function.Name, strings.Join(offered, ", "))
		}
		conv.want = append(conv.want, Call{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	conv.text = turn.Text
	return conv, nil
}
