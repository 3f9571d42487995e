package gemini

import (
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
)

// Check checks what a Gemini request needs on top of agent.CheckMessages, on
// the contents Body makes of msgs (see checkContents). The error wraps
// agent.ErrInvalidMessages.
func Check(msgs []agent.Message) error {
	if err := agent.CheckMessages(msgs); err != nil {
		return err
	}
	req, err := toWire(msgs)
	if err != nil {
		return fmt.Errorf("%w: %w", agent.ErrInvalidMessages, err)
	}
	return checkContents(req.Contents)
}

// checkContents checks the invariant Gemini answers with a 400 when it is
// broken ("Please ensure that the number of function response parts is
// equal to the number of function call parts of the function call turn"):
// every functionCall of a model content has a name and is answered, in
// order, by a functionResponse with the same name (and the same id when both
// have one) at the head of the next content, a user one; and no
// functionResponse appears anywhere else. Positions are indexes in the
// request's contents.
func checkContents(contents []content) error {
	for i := 0; i < len(contents); i++ {
		c := contents[i]
		var calls []*functionCall
		for j, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				return wireInvalid(i, "part %d: functionResponse %q answers no functionCall of the content before it", j, p.FunctionResponse.Name)
			case p.FunctionCall != nil && c.Role != "model":
				return wireInvalid(i, "part %d: functionCall %q in a %s content", j, p.FunctionCall.Name, roleName(c.Role))
			case p.FunctionCall != nil && p.FunctionCall.Name == "":
				return wireInvalid(i, "part %d: functionCall has an empty name", j)
			case p.FunctionCall != nil:
				calls = append(calls, p.FunctionCall)
			}
		}
		if len(calls) == 0 {
			continue
		}
		if err := checkResponses(contents, i, calls); err != nil {
			return err
		}
		i++ // the responses were checked; the rest of that content may be text
	}
	return nil
}

// checkResponses checks that the content after the model content at i
// starts with one functionResponse per call, in the calls' order.
func checkResponses(contents []content, i int, calls []*functionCall) error {
	if i+1 >= len(contents) || contents[i+1].Role == "model" {
		return wireInvalid(i, "functionCall %q has no functionResponse in the next content", calls[0].Name)
	}
	next := contents[i+1].Parts
	for k, call := range calls {
		if k >= len(next) || next[k].FunctionResponse == nil {
			return wireInvalid(i+1, "functionCall %d (%q) of content %d has no functionResponse at part %d", k, call.Name, i, k)
		}
		r := next[k].FunctionResponse
		if r.Name != call.Name {
			return wireInvalid(i+1, "part %d: functionResponse %q answers functionCall %d, which is %q (responses go in the calls' order)", k, r.Name, k, call.Name)
		}
		if r.ID != "" && call.ID != "" && r.ID != call.ID {
			return wireInvalid(i+1, "part %d: functionResponse id %q answers functionCall %d, whose id is %q", k, r.ID, k, call.ID)
		}
	}
	for k := len(calls); k < len(next); k++ {
		if r := next[k].FunctionResponse; r != nil {
			return wireInvalid(i+1, "part %d: functionResponse %q has no functionCall left to answer (%d calls)", k, r.Name, len(calls))
		}
	}
	return nil
}

func roleName(role string) string {
	if role == "" {
		return "role-less"
	}
	return fmt.Sprintf("%q", role)
}

func wireInvalid(pos int, format string, args ...any) error {
	return fmt.Errorf("%w: request content %d: %s", agent.ErrInvalidMessages, pos, fmt.Sprintf(format, args...))
}
