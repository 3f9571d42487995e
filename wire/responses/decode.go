package responses

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
)

// Decode reads a Responses request the way a server sees it and checks
// agent.CheckMessages on its neutral messages (the error then wraps
// agent.ErrInvalidMessages).
func Decode(body []byte) (agent.DecodedRequest, error) {
	req, err := decodeInput(body)
	if err != nil {
		return req, fmt.Errorf("body is not a valid request: %w", err)
	}
	return req, agent.CheckMessages(req.Messages)
}

// inputRequest is the part of a Responses request a server reads.
type inputRequest struct {
	Model  string          `json:"model"`
	Input  json.RawMessage `json:"input"`
	Stream bool            `json:"stream"`
}

// inputItem is one input item: a message, a function_call or a
// function_call_output.
type inputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"` // custom_tool_call
	Output    json.RawMessage `json:"output"`
}

// decodeInput reads a Responses request into the neutral messages
// the invariants are checked on: a message item is a message, function_call
// (and custom_tool_call) items join the assistant message before them (or
// open one), and a function_call_output (or custom_tool_call_output) is a
// tool message answering its call_id.
func decodeInput(body []byte) (agent.DecodedRequest, error) {
	var req inputRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return agent.DecodedRequest{}, err
	}
	out := agent.DecodedRequest{Model: req.Model, Stream: req.Stream}
	var input string
	if json.Unmarshal(req.Input, &input) == nil {
		out.Messages = []agent.Message{{Role: agent.RoleUser, Content: input}}
		return out, nil
	}
	var items []inputItem
	if err := json.Unmarshal(req.Input, &items); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("input: %w", err)
	}
	for i, it := range items {
		switch it.Type {
		case "message", "":
			text, err := inputText(it.Content)
			if err != nil {
				return agent.DecodedRequest{}, fmt.Errorf("input %d: %w", i, err)
			}
			out.Messages = append(out.Messages, agent.Message{Role: it.Role, Content: text})
		case "function_call", "custom_tool_call":
			n := len(out.Messages)
			if n == 0 || out.Messages[n-1].Role != agent.RoleAssistant {
				out.Messages = append(out.Messages, agent.Message{Role: agent.RoleAssistant})
				n++
			}
			call := agent.ToolCall{ID: it.CallID, Type: "function", Function: agent.FunctionCall{Name: it.Name, Arguments: it.Arguments}}
			if it.Type == "custom_tool_call" {
				call.Type, call.Function.Arguments = "custom", it.Input
			}
			out.Messages[n-1].ToolCalls = append(out.Messages[n-1].ToolCalls, call)
		case "function_call_output", "custom_tool_call_output":
			text, err := inputText(it.Output)
			if err != nil {
				return agent.DecodedRequest{}, fmt.Errorf("input %d: output: %w", i, err)
			}
			out.Messages = append(out.Messages, agent.Message{Role: agent.RoleTool, ToolCallID: it.CallID, Content: text})
		default:
			return agent.DecodedRequest{}, fmt.Errorf("input %d: item type %q is not one agentvcr reads", i, it.Type)
		}
	}
	return out, nil
}

// inputText is a content member's text: a string, or the texts of an array
// of {"type":"input_text"|"output_text","text"} parts joined.
func inputText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither a string nor an array of text parts")
	}
	for _, p := range parts {
		s += p.Text
	}
	return s, nil
}

// Turn reads a request's model and counts the assistant turns of its
// "input": each run of assistant message, function_call and
// custom_tool_call items is one
// (a turn with calls and no text has no message item). The first request
// is turn 1; a body that does not read is turn 1 of no model.
func Turn(body []byte) (model string, turn int) {
	var req struct {
		Model string `json:"model"`
		Input any    `json:"input"`
	}
	_ = json.Unmarshal(body, &req) // a matcher reports what does not fit
	turn = 1
	var input struct {
		Input []struct {
			Type string `json:"type"`
			Role string `json:"role"`
		} `json:"input"`
	}
	if _, isList := req.Input.([]any); isList && json.Unmarshal(body, &input) == nil {
		inAssistant := false
		for _, it := range input.Input {
			assistant := it.Type == "function_call" || it.Type == "custom_tool_call" || it.Role == agent.RoleAssistant
			if assistant && !inAssistant {
				turn++
			}
			inAssistant = assistant
		}
	}
	return req.Model, turn
}
