package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/wire/responses"
)

// responsesFormat is OpenAI's Responses format. Its
// requests read into the same Request: "instructions" is a system message;
// a message item is a message of its role (its text parts joined); a run of
// function_call items, with the assistant message item right before them,
// is one assistant message whose Calls carry each item's call_id (an
// assistant message item right after the run joins it too); a
// function_call_output item is a tool message answering its call_id. A
// custom tool's custom_tool_call (its input as the arguments) and
// custom_tool_call_output read the same way; the custom tools an agent
// offers ({"type":"custom"}: Codex's apply_patch) are not among Tools, which
// the case's turn calls with JSON arguments. A reasoning item belongs to the
// assistant item right after it; one that no assistant item follows is
// LoneReasoning.
var responsesFormat = Format{Format: responses.Format, Read: readResponses,
	cases: ResponsesCases, cut: responsesCutPoint, renumber: renumberResponses, dir: "responses"}

// responsesWire is the part of a Responses request conform reads. input is
// a string (one user message) or an array of items.
type responsesWire struct {
	Model        string          `json:"model"`
	Stream       bool            `json:"stream"`
	Instructions string          `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        []struct {
		Type       string          `json:"type"`
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"tools"`
}

// responsesItem is one input item.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`  // custom_tool_call
	Output    json.RawMessage `json:"output"` // a call's output: a string or text parts
}

func readResponses(body []byte) (Request, error) {
	var w responsesWire
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrNotARequest, err)
	}
	r := Request{Model: w.Model, Streams: w.Stream, Body: body}
	for _, t := range w.Tools {
		if t.Type == "function" {
			r.Tools = append(r.Tools, Tool{Name: t.Name, Schema: t.Parameters})
		}
	}
	if w.Instructions != "" {
		r.Messages = append(r.Messages, Message{Role: "system", Text: w.Instructions})
	}
	var text string
	if json.Unmarshal(w.Input, &text) == nil {
		r.Messages = append(r.Messages, Message{Role: "user", Text: text})
		return r, nil
	}
	var items []responsesItem
	if err := json.Unmarshal(w.Input, &items); err != nil || items == nil {
		return Request{}, fmt.Errorf("%w: \"input\" is neither a string nor an array of items", ErrNotARequest)
	}
	open := false          // the last message is an assistant message that calls may join
	var reasoning []string // reasoning items waiting for the assistant item after them
	for _, it := range items {
		switch {
		case it.Type == "reasoning":
			reasoning = append(reasoning, it.ID)
			continue
		case it.Type == "function_call" || it.Type == "custom_tool_call":
			if it.Type == "custom_tool_call" {
				it.Arguments = it.Input
			}
			if !open {
				r.Messages = append(r.Messages, Message{Role: "assistant"})
				open = true
			}
			last := &r.Messages[len(r.Messages)-1]
			last.ReasoningIDs = append(last.ReasoningIDs, reasoning...)
			last.Calls = append(last.Calls, Call{ID: it.CallID, Name: it.Name, Arguments: argumentsText(it.Arguments), ItemID: it.ID})
		case it.Type == "function_call_output" || it.Type == "custom_tool_call_output":
			r.LoneReasoning = append(r.LoneReasoning, reasoning...)
			r.Messages = append(r.Messages, Message{Role: "tool", CallID: it.CallID, Text: contentText(it.Output)})
			open = false
		case (it.Type == "message" || (it.Type == "" && it.Role != "")) && it.Role == "assistant" && open:
			// The assistant's text after its calls (response.completed's
			// order) is part of the same turn: the API pairs calls and
			// outputs by call_id, wherever the message item stands.
			last := &r.Messages[len(r.Messages)-1]
			last.Text += contentText(it.Content)
			last.ReasoningIDs = append(last.ReasoningIDs, reasoning...)
		case it.Type == "message" || (it.Type == "" && it.Role != ""):
			m := Message{Role: it.Role, Text: contentText(it.Content)}
			if it.Role == "assistant" {
				m.ReasoningIDs = reasoning
			} else {
				r.LoneReasoning = append(r.LoneReasoning, reasoning...)
			}
			r.Messages = append(r.Messages, m)
			open = it.Role == "assistant"
		case it.Type == "item_reference":
			// An item of a stored response, sent by its id: the API reads
			// it from storage. It stands for the assistant's message (the
			// Vercel AI SDK sends its text so), whose text is then not in
			// the request to compare.
			if !open {
				r.Messages = append(r.Messages, Message{Role: "assistant", ReasoningIDs: reasoning})
				open = true
			}
			r.Messages[len(r.Messages)-1].TextByReference = true
		default: // built-in tool items: not part of the checks
		}
		reasoning = nil
	}
	r.LoneReasoning = append(r.LoneReasoning, reasoning...)
	return r, nil
}
