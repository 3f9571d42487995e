package gateway

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/agent"
)

// Stream renders turn index (0-based) of the script named script as a clean
// stream of format f: the events f's writer makes of the turn (see
// agent.Format.Write), ids derived from the script's name and the index, so
// the same inputs always give the same bytes.
func Stream(f *agent.Format, model, script string, index int, r ScriptTurn) []string {
	return f.Write(model, script, index, r.Turn())
}

// Turn is the script turn as the neutral turn a format writes: Reasoning is
// an agent.ThinkingText block, each call's ThoughtSignature its
// extra_content ({"google":{"thought_signature":...}}), and the calls have
// no id (the format's writer makes them).
func (r ScriptTurn) Turn() *agent.Turn {
	t := &agent.Turn{Text: r.Text, FinishReason: r.FinishReason}
	if r.Reasoning != "" {
		t.Thinking = []agent.Thinking{{Type: agent.ThinkingText, Text: r.Reasoning}}
	}
	for _, c := range r.Calls {
		call := agent.ToolCall{Type: "function", Function: agent.FunctionCall{Name: c.Name, Arguments: c.Arguments}}
		if c.ThoughtSignature != "" {
			call.ExtraContent = signature(c.ThoughtSignature)
		}
		t.ToolCalls = append(t.ToolCalls, call)
	}
	return t
}

// extraContent is Gemini's extra_content of a tool call.
type extraContent struct {
	Google struct {
		ThoughtSignature string `json:"thought_signature"`
	} `json:"google"`
}

// signature is the extra_content of a call that carries sig.
func signature(sig string) json.RawMessage {
	var e extraContent
	e.Google.ThoughtSignature = sig
	b, _ := json.Marshal(e) // a struct of one string always marshals
	return b
}
