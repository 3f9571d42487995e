package responses

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// respRequest is the body of a Responses request; field order is key order.
type respRequest struct {
	Model  string         `json:"model"`
	Input  []respInput    `json:"input"`
	Tools  []respToolJSON `json:"tools,omitempty"`
	Stream bool           `json:"stream"`
}

// respInput is one input item: a message {"type":"message","role","content"},
// a {"type":"function_call","call_id","name","arguments"}, a
// {"type":"function_call_output","call_id","output"}, or their custom
// tool kin {"type":"custom_tool_call","call_id","name","input"} and
// {"type":"custom_tool_call_output","call_id","output"}. Members a type
// does not have are left out.
type respInput struct {
	Type      string  `json:"type"`
	Role      string  `json:"role,omitempty"`
	Content   *string `json:"content,omitempty"`
	CallID    string  `json:"call_id,omitempty"`
	Name      string  `json:"name,omitempty"`
	Arguments *string `json:"arguments,omitempty"`
	Input     *string `json:"input,omitempty"`
	Output    *string `json:"output,omitempty"`
}

// respToolJSON is a function tool as the Responses API takes it: flat, not
// wrapped in a "function" member.
type respToolJSON struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Body returns the exact bytes of a Responses request:
// {"model","input":[..],"tools":[..],"stream":true}, made from the same
// neutral messages and tool definitions as a chat-completions request. A
// system, user or assistant text becomes a message item; an assistant's tool
// calls become function_call items after its text (a call of Type "custom"
// a custom_tool_call whose input is its arguments); a tool message becomes a
// function_call_output with the call's id (custom_tool_call_output when it
// answers a custom call). The same input always gives the same bytes;
// "tools" is left out when there are none.
func Body(model string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	req := respRequest{Model: model, Input: []respInput{}, Stream: true}
	custom := map[string]bool{} // the ids of the custom calls so far
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case agent.RoleTool:
			typ := "function_call_output"
			if custom[m.ToolCallID] {
				typ = "custom_tool_call_output"
			}
			req.Input = append(req.Input, respInput{Type: typ, CallID: m.ToolCallID, Output: &m.Content})
		case agent.RoleSystem, agent.RoleUser, agent.RoleAssistant:
			if m.Content != "" || len(m.ToolCalls) == 0 {
				req.Input = append(req.Input, respInput{Type: "message", Role: m.Role, Content: &m.Content})
			}
			for j := range m.ToolCalls {
				c := &m.ToolCalls[j]
				if c.Type == "custom" {
					custom[c.ID] = true
					req.Input = append(req.Input, respInput{Type: "custom_tool_call", CallID: c.ID, Name: c.Function.Name, Input: &c.Function.Arguments})
					continue
				}
				req.Input = append(req.Input, respInput{Type: "function_call", CallID: c.ID, Name: c.Function.Name, Arguments: &c.Function.Arguments})
			}
		default:
			return nil, fmt.Errorf("message %d: role %q has no Responses input item", i, m.Role)
		}
	}
	for _, d := range defs {
		req.Tools = append(req.Tools, respToolJSON{Type: "function", Name: d.Function.Name, Description: d.Function.Description, Parameters: d.Function.Parameters})
	}
	return json.Marshal(req)
}
