package streamtest

import "fmt"

// The Responses output items the WebSocket tests answer with: a glob call
// (call_1), and a message saying "done".
const (
	ResponsesCall    = `{"type":"function_call","id":"fc_1","status":"completed","call_id":"call_1","name":"glob","arguments":"{\"pattern\":\"*\"}"}`
	ResponsesMessage = `{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"done"}]}`
)

// ResponsesStream is a Responses stream of one response with id holding
// item: response.created, the item's output_item.added and .done, then
// response.completed listing it.
func ResponsesStream(id, item string) []byte {
	return fmt.Appendf(nil, "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":%q,\"status\":\"in_progress\",\"output\":[]}}\n\n"+
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":%s}\n\n"+
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"sequence_number\":2,\"output_index\":0,\"item\":%s}\n\n"+
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":3,\"response\":{\"id\":%q,\"status\":\"completed\",\"output\":[%s]}}\n\n",
		id, item, item, id, item)
}

// ResponsesTurn is the stream a two-turn conversation answers turn with:
// the call (response resp_1) on the first, the message (resp_2) after.
func ResponsesTurn(turn int) []byte {
	if turn >= 2 {
		return ResponsesStream("resp_2", ResponsesMessage)
	}
	return ResponsesStream("resp_1", ResponsesCall)
}
