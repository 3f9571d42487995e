package responses

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/piece"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
)

// The Responses stream in the field order OpenAI sends.
type (
	streamEvent struct {
		Type           string          `json:"type"`
		SequenceNumber int             `json:"sequence_number"`
		Response       *streamResponse `json:"response,omitempty"`
		OutputIndex    *int            `json:"output_index,omitempty"`
		Item           *streamItem     `json:"item,omitempty"`
		ItemID         string          `json:"item_id,omitempty"`
		ContentIndex   *int            `json:"content_index,omitempty"`
		Part           *streamPart     `json:"part,omitempty"`
		Delta          *string         `json:"delta,omitempty"`
		Text           *string         `json:"text,omitempty"`
		Arguments      *string         `json:"arguments,omitempty"`
		Input          *string         `json:"input,omitempty"`
	}
	streamResponse struct {
		ID        string       `json:"id"`
		Object    string       `json:"object"`
		CreatedAt int64        `json:"created_at"`
		Status    string       `json:"status"`
		Model     string       `json:"model"`
		Output    []streamItem `json:"output"`
		Usage     *struct{}    `json:"usage"`
	}
	streamItem struct {
		ID        string        `json:"id"`
		Type      string        `json:"type"`
		Status    string        `json:"status"`
		Role      string        `json:"role,omitempty"`
		Content   *[]streamPart `json:"content,omitempty"`
		Arguments *string       `json:"arguments,omitempty"`
		Input     *string       `json:"input,omitempty"`
		CallID    string        `json:"call_id,omitempty"`
		Name      string        `json:"name,omitempty"`
	}
	streamPart struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
	}
)

// Write renders t as the events of a clean OpenAI Responses stream
// ("event: TYPE\ndata: {...}\n\n" each): response.created and
// response.in_progress; the text as a message item at output_index 0
// (output_item.added, content_part.added, output_text.delta in pieces,
// output_text.done, content_part.done, output_item.done); each call as a
// function_call item at the next output_index (output_item.added with its
// call_id and name, function_call_arguments.delta in pieces,
// function_call_arguments.done, output_item.done), a call of Type "custom"
// as a custom_tool_call item whose input streams the same way
// (custom_tool_call_input.delta and .done); response.completed with the
// whole output. A call without an id gets the one chat completions gives
// it, so a conversation has the same ids in both formats. Reasoning and the
// finish reason are not written.
func Write(model, conversation string, index int, t *agent.Turn) []string {
	var events []string
	emit := func(ev streamEvent) {
		ev.SequenceNumber = len(events)
		b, err := json.Marshal(ev)
		if err != nil {
			panic(err) // plain structs of strings and ints always marshal
		}
		events = append(events, "event: "+ev.Type+"\ndata: "+string(b)+"\n\n")
	}
	id := fmt.Sprintf("%s_%d", conversation, index+1)
	response := func(status string, output []streamItem) *streamResponse {
		if output == nil {
			output = []streamItem{}
		}
		return &streamResponse{ID: "resp_" + id, Object: "response", CreatedAt: openai.Created, Status: status, Model: model, Output: output}
	}
	emit(streamEvent{Type: "response.created", Response: response("in_progress", nil)})
	emit(streamEvent{Type: "response.in_progress", Response: response("in_progress", nil)})
	var output []streamItem
	next := 0 // the next item's output_index
	if t.Text != "" {
		msgID, zero, at := "msg_"+id, 0, next
		empty := []streamPart{}
		emit(streamEvent{Type: "response.output_item.added", OutputIndex: &at,
			Item: &streamItem{ID: msgID, Type: "message", Status: "in_progress", Role: agent.RoleAssistant, Content: &empty}})
		part := streamPart{Type: "output_text", Annotations: []any{}}
		emit(streamEvent{Type: "response.content_part.added", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Part: &part})
		for _, piece := range piece.Split(t.Text, piece.TextRunes) {
			emit(streamEvent{Type: "response.output_text.delta", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Delta: &piece})
		}
		text := t.Text
		emit(streamEvent{Type: "response.output_text.done", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Text: &text})
		done := streamPart{Type: "output_text", Text: text, Annotations: []any{}}
		emit(streamEvent{Type: "response.content_part.done", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Part: &done})
		content := []streamPart{done}
		item := streamItem{ID: msgID, Type: "message", Status: "completed", Role: agent.RoleAssistant, Content: &content}
		emit(streamEvent{Type: "response.output_item.done", OutputIndex: &at, Item: &item})
		output = append(output, item)
		next++
	}
	for i, c := range t.ToolCalls {
		itemID, callID, at := fmt.Sprintf("fc_%s_%d", id, i), c.ID, next
		if callID == "" {
			callID = openai.CallID(conversation, index, i)
		}
		none, args := "", c.Function.Arguments
		added := streamItem{ID: itemID, Type: "function_call", Status: "in_progress", Arguments: &none, CallID: callID, Name: c.Function.Name}
		item := streamItem{ID: itemID, Type: "function_call", Status: "completed", Arguments: &args, CallID: callID, Name: c.Function.Name}
		deltaType, done := "response.function_call_arguments.delta", streamEvent{Type: "response.function_call_arguments.done", ItemID: itemID, OutputIndex: &at, Arguments: &args}
		if c.Type == "custom" {
			itemID = fmt.Sprintf("ctc_%s_%d", id, i)
			added = streamItem{ID: itemID, Type: "custom_tool_call", Status: "in_progress", Input: &none, CallID: callID, Name: c.Function.Name}
			item = streamItem{ID: itemID, Type: "custom_tool_call", Status: "completed", Input: &args, CallID: callID, Name: c.Function.Name}
			deltaType, done = "response.custom_tool_call_input.delta", streamEvent{Type: "response.custom_tool_call_input.done", ItemID: itemID, OutputIndex: &at, Input: &args}
		}
		emit(streamEvent{Type: "response.output_item.added", OutputIndex: &at, Item: &added})
		for _, piece := range piece.Split(args, piece.ArgsRunes) {
			emit(streamEvent{Type: deltaType, ItemID: itemID, OutputIndex: &at, Delta: &piece})
		}
		emit(done)
		emit(streamEvent{Type: "response.output_item.done", OutputIndex: &at, Item: &item})
		output = append(output, item)
		next++
	}
	emit(streamEvent{Type: "response.completed", Response: response("completed", output)})
	return events
}
