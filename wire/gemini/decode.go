package gemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// Decode reads a Gemini request body the way the scripted gateway and
// conform see it: systemInstruction's text parts become one system message;
// a user content's functionResponse parts become tool messages (each
// answering the call at its position, by the call's id) and its text parts
// one user message; a model content's text parts one assistant message with
// its functionCall parts as calls (a call without an id gets CallID of its
// position, its thought signature in ExtraContent) and its thought parts as
// reasoning. It checks checkContents first: the error wraps
// agent.ErrInvalidMessages when the invariant is broken. The model and the
// stream flag are in the path, not the body: DecodedRequest.Model is "" and
// Stream false (agent.Format.RequestOf reads them from the path).
func Decode(body []byte) (agent.DecodedRequest, error) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not a Gemini request: %w", err)
	}
	var out agent.DecodedRequest
	if err := checkContents(req.Contents); err != nil {
		return out, err
	}
	if si := req.SystemInstruction; si != nil {
		out.Messages = append(out.Messages, agent.Message{Role: agent.RoleSystem, Content: joinText(si.Parts)})
	}
	var ids []string // the ids of the last model content's calls
	for _, c := range req.Contents {
		if c.Role == "model" {
			var m agent.Message
			m, ids = fromModel(c)
			out.Messages = append(out.Messages, m)
			continue
		}
		k := 0
		for ; k < len(c.Parts) && c.Parts[k].FunctionResponse != nil; k++ {
			out.Messages = append(out.Messages, agent.Message{Role: agent.RoleTool, ToolCallID: ids[k], Content: responseText(c.Parts[k].FunctionResponse.Response)})
		}
		if k < len(c.Parts) || k == 0 {
			out.Messages = append(out.Messages, agent.Message{Role: agent.RoleUser, Content: joinText(c.Parts[k:])})
		}
		ids = nil
	}
	return out, nil
}

// fromModel is a model content as an assistant message, and its calls' ids.
func fromModel(c content) (agent.Message, []string) {
	m := agent.Message{Role: agent.RoleAssistant}
	var ids []string
	for _, p := range c.Parts {
		switch {
		case p.FunctionCall != nil:
			id := p.FunctionCall.ID
			if id == "" {
				id = CallID(len(ids))
			}
			ids = append(ids, id)
			m.ToolCalls = append(m.ToolCalls, agent.ToolCall{ID: id, Type: "function",
				Function:     agent.FunctionCall{Name: p.FunctionCall.Name, Arguments: compactArgs(p.FunctionCall.Args)},
				ExtraContent: WithSignature(p.ThoughtSignature)})
			continue
		case p.Thought && p.Text != nil:
			m.Thinking = append(m.Thinking, agent.Thinking{Type: agent.ThinkingReasoning, Text: *p.Text})
		case p.Text != nil:
			m.Content += *p.Text
		}
		if p.ThoughtSignature != "" {
			m.Thinking = append(m.Thinking, agent.Thinking{Type: agent.ThinkingRedacted, Data: p.ThoughtSignature})
		}
	}
	return m, ids
}

// joinText joins the text of the parts that are not thoughts.
func joinText(parts []part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Text != nil && !p.Thought {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// responseText is a functionResponse's response as the tool message's text:
// its "output" when it is a string, the response's JSON otherwise.
func responseText(r json.RawMessage) string {
	var o struct {
		Output *string `json:"output"`
	}
	if json.Unmarshal(r, &o) == nil && o.Output != nil {
		return *o.Output
	}
	return compactArgs(r)
}

// Turn counts a request's model contents: the turn it asks for (1 for the
// first request). The model is not in the body: it is "" (see
// agent.Format.TurnOf). A body that does not read is turn 1.
func Turn(body []byte) (model string, turn int) {
	var req struct {
		Contents []struct {
			Role string `json:"role"`
		} `json:"contents"`
	}
	_ = json.Unmarshal(body, &req) // a matcher reports what does not fit
	turn = 1
	for _, c := range req.Contents {
		if c.Role == "model" {
			turn++
		}
	}
	return "", turn
}
