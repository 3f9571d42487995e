package harness

import (
	"encoding/json"
	"fmt"
)

// The Responses stream in the field order OpenAI sends.
type (
	respWireEvent struct {
		Type           string            `json:"type"`
		SequenceNumber int               `json:"sequence_number"`
		Response       *respWireResponse `json:"response,omitempty"`
		OutputIndex    *int              `json:"output_index,omitempty"`
		Item           *respWireItem     `json:"item,omitempty"`
		ItemID         string            `json:"item_id,omitempty"`
		ContentIndex   *int              `json:"content_index,omitempty"`
		Part           *respWirePart     `json:"part,omitempty"`
		Delta          *string           `json:"delta,omitempty"`
		Text           *string           `json:"text,omitempty"`
		Arguments      *string           `json:"arguments,omitempty"`
	}
	respWireResponse struct {
		ID        string         `json:"id"`
		Object    string         `json:"object"`
		CreatedAt int64          `json:"created_at"`
		Status    string         `json:"status"`
		Model     string         `json:"model"`
		Output    []respWireItem `json:"output"`
		Usage     *struct{}      `json:"usage"`
	}
	respWireItem struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		Status    string          `json:"status"`
		Role      string          `json:"role,omitempty"`
		Content   *[]respWirePart `json:"content,omitempty"`
		Arguments *string         `json:"arguments,omitempty"`
		CallID    string          `json:"call_id,omitempty"`
		Name      string          `json:"name,omitempty"`
	}
	respWirePart struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
	}
)

// StreamResponsesReply renders one scripted reply as the events of a clean
// OpenAI Responses stream ("event: TYPE\ndata: {...}\n\n" each):
// response.created and response.in_progress; the text as a message item at
// output_index 0 (output_item.added, content_part.added, output_text.delta
// in pieces, output_text.done, content_part.done, output_item.done); each call
// as a function_call item at the next output_index (output_item.added with
// its call_id and name, function_call_arguments.delta in pieces,
// function_call_arguments.done, output_item.done); response.completed with
// the whole output. The call ids are those StreamReply gives the same reply,
// so a conversation has the same ids in both formats. The same inputs always
// give the same bytes.
func StreamResponsesReply(model, script string, turn int, r Reply) []string {
	var events []string
	emit := func(ev respWireEvent) {
		ev.SequenceNumber = len(events)
		b, err := json.Marshal(ev)
		if err != nil {
			panic(err) // plain structs of strings and ints always marshal
		}
		events = append(events, "event: "+ev.Type+"\ndata: "+string(b)+"\n\n")
	}
	id := fmt.Sprintf("%s_%d", script, turn+1)
	response := func(status string, output []respWireItem) *respWireResponse {
		if output == nil {
			output = []respWireItem{}
		}
		return &respWireResponse{ID: "resp_" + id, Object: "response", CreatedAt: created, Status: status, Model: model, Output: output}
	}
	emit(respWireEvent{Type: "response.created", Response: response("in_progress", nil)})
	emit(respWireEvent{Type: "response.in_progress", Response: response("in_progress", nil)})
	var output []respWireItem
	index := 0
	if r.Text != "" {
		msgID, zero := "msg_"+id, 0
		at := index
		empty := []respWirePart{}
		emit(respWireEvent{Type: "response.output_item.added", OutputIndex: &at,
			Item: &respWireItem{ID: msgID, Type: "message", Status: "in_progress", Role: "assistant", Content: &empty}})
		part := respWirePart{Type: "output_text", Annotations: []any{}}
		emit(respWireEvent{Type: "response.content_part.added", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Part: &part})
		for _, piece := range splitRunes(r.Text, textPieceRunes) {
			emit(respWireEvent{Type: "response.output_text.delta", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Delta: &piece})
		}
		text := r.Text
		emit(respWireEvent{Type: "response.output_text.done", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Text: &text})
		done := respWirePart{Type: "output_text", Text: text, Annotations: []any{}}
		emit(respWireEvent{Type: "response.content_part.done", ItemID: msgID, OutputIndex: &at, ContentIndex: &zero, Part: &done})
		content := []respWirePart{done}
		item := respWireItem{ID: msgID, Type: "message", Status: "completed", Role: "assistant", Content: &content}
		emit(respWireEvent{Type: "response.output_item.done", OutputIndex: &at, Item: &item})
		output = append(output, item)
		index++
	}
	for i, c := range r.Calls {
		itemID, callID, at := fmt.Sprintf("fc_%s_%d", id, i), callID(script, turn, i), index
		none, args := "", c.Arguments
		emit(respWireEvent{Type: "response.output_item.added", OutputIndex: &at,
			Item: &respWireItem{ID: itemID, Type: "function_call", Status: "in_progress", Arguments: &none, CallID: callID, Name: c.Name}})
		for _, piece := range splitRunes(c.Arguments, argsPieceRunes) {
			emit(respWireEvent{Type: "response.function_call_arguments.delta", ItemID: itemID, OutputIndex: &at, Delta: &piece})
		}
		emit(respWireEvent{Type: "response.function_call_arguments.done", ItemID: itemID, OutputIndex: &at, Arguments: &args})
		item := respWireItem{ID: itemID, Type: "function_call", Status: "completed", Arguments: &args, CallID: callID, Name: c.Name}
		emit(respWireEvent{Type: "response.output_item.done", OutputIndex: &at, Item: &item})
		output = append(output, item)
		index++
	}
	emit(respWireEvent{Type: "response.completed", Response: response("completed", output)})
	return events
}
