package conform

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/quirk"
)

// A conversation is the model's side that a case serves: the clean SSE body
// of each turn. Turn N answers the request that carries N assistant
// messages.
type conversation struct {
	turns [][]byte
	// clamp answers a request past the last turn with the last one (the
	// probe's conclusion); otherwise such a request is a miss.
	clamp bool
	// want is the tool turn's calls as a correct accumulator merges them
	// (probe mode).
	want []Call
	// plain are the turns themselves (probe mode), for a request that
	// asks for no stream (fallback.go).
	plain []agent.Turn
	// text is the tool turn's text as merged: the probe's, or a captured
	// turn's ("" when our merger refuses it).
	text string
	// note is what the first case's details add about the probe itself:
	// that its tools read no text (mediaprobe.go), or "".
	note string
}

// probeScript names the probe's stream ids ("chatcmpl-conform-1").
const probeScript = "conform"

// build is the probe's conversation in format f, built from the agent's
// first request: one text piece and the picked calls in parallel, then a
// short conclusion, written by the format's own writer (f.Write); f.Merge
// (the agent core's merger) reads the tool turn back into the calls a correct agent sends on.
// When the agent offers a tool it ends its run with (completionTool), the
// conclusion calls it too, and a last turn of the conclusion's text alone
// answers what the agent sends after it.
func (f Format) build(first Request, specs []CallSpec, dir string) (*conversation, error) {
	calls, err := ProbeCalls(first.Tools, specs, dir)
	if err != nil {
		return nil, err
	}
	conclusion := agent.Turn{Text: probeConclusion}
	if done, ok := completionTool(first.Tools); ok {
		args, err := GenerateArguments(done.Schema, false)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", done.Name, err)
		}
		conclusion.ToolCalls = []agent.ToolCall{{Type: "function", Function: agent.FunctionCall{Name: done.Name, Arguments: args}}}
	}
	reply := agent.Turn{Text: probeText}
	for _, c := range calls {
		reply.ToolCalls = append(reply.ToolCalls, agent.ToolCall{Type: "function", Function: agent.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
	}
	model := first.Model
	if model == "" {
		model = "conform"
	}
	tool := []byte(strings.Join(f.Write(model, probeScript, 0, &reply), ""))
	end := []byte(strings.Join(f.Write(model, probeScript, 1, &conclusion), ""))
	turn, err := f.Merge(bytes.NewReader(tool))
	if err != nil {
		return nil, fmt.Errorf("the probe's own turn does not merge: %w", err)
	}
	conv := &conversation{turns: [][]byte{tool, end}, clamp: true, plain: []agent.Turn{reply, conclusion}, text: turn.Text}
	if len(conclusion.ToolCalls) > 0 {
		last := agent.Turn{Text: probeConclusion}
		conv.turns = append(conv.turns, []byte(strings.Join(f.Write(model, probeScript, 2, &last), "")))
		conv.plain = append(conv.plain, last)
	}
	for _, c := range turn.ToolCalls {
		conv.want = append(conv.want, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	if len(specs) == 0 {
		conv.note = mediaNote(first.Tools, calls, dir)
	}
	return conv, nil
}

// served is what conform serves for one request: an SSE body, or a fault
// in its place, or an HTTP error (a request past the conversation).
type served struct {
	Body   []byte
	Fault  string // one of the Fault constants, "" for none
	Status int    // an HTTP error status; 0 serves Body
	Error  string // the error message with Status
}

// answer is the case's answer to a request asking for turn, the attempt-th
// request of the case (from 1). changed reports whether the transform
// changed the turn's body; a transform that does not apply to a turn
// serves it unchanged.
func (c Case) answer(conv *conversation, turn, attempt int) (ans served, changed bool, err error) {
	if turn >= len(conv.turns) {
		if !conv.clamp {
			return served{Status: 404, Error: fmt.Sprintf("conform: the recorded conversation has %d turns; this request carries %d assistant messages", len(conv.turns), turn)}, false, nil
		}
		turn = len(conv.turns) - 1
	}
	body := conv.turns[turn]
	if c.Fault != "" && attempt == 1 {
		return served{Body: body, Fault: c.Fault}, true, nil
	}
	if c.Transform == nil || (c.ToolTurnOnly && turn != 0) {
		return served{Body: body}, false, nil
	}
	out, err := c.Transform(body, int64(turn+1))
	switch {
	case errors.Is(err, quirk.ErrNotApplicable):
		return served{Body: body}, false, nil
	case err != nil:
		return served{}, false, fmt.Errorf("case %s, turn %d: %w", c.ID, turn+1, err)
	}
	return served{Body: out}, !bytes.Equal(out, body), nil
}
