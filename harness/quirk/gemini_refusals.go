package quirk

import (
	"encoding/json"
	"fmt"
)

// errorLineCancelled is what Google sends when a request is cancelled
// mid-stream: its error object on a line of its own, not framed as an SSE
// event.
const errorLineCancelled = `{"error":{"code":499,"message":"The operation was cancelled.","status":"CANCELLED"}}`

// errorLine keeps the first event and ends the stream with the bare error
// line: the turn so far must not be taken for the answer.
func errorLine(body []byte, seed int64) ([]byte, error) {
	first, err := gemEdit(func(evs []*jsonObject) ([]*jsonObject, error) {
		if len(evs) == 0 {
			return nil, fmt.Errorf("no event: %w", ErrNotApplicable)
		}
		return evs[:1], nil
	})(body, seed)
	if err != nil {
		return nil, err
	}
	return append(first, errorLineCancelled+"\r\n"...), nil
}

// malformedAfterCall keeps the call parts and ends the turn with
// finishReason MALFORMED_FUNCTION_CALL and a finishMessage in an event of
// its own: the calls that came are the invalid ones, and none may run.
func malformedAfterCall(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 {
		return nil, fmt.Errorf("no call: %w", ErrNotApplicable)
	}
	end := evs[i].clone()
	candidate(evs[i]).del("finishReason")
	evs[i].del("usageMetadata")
	setParts(end, []any{})
	candidate(end).set("finishReason", "MALFORMED_FUNCTION_CALL")
	candidate(end).setAfter("finishReason", "finishMessage", "Malformed function call: the arguments do not parse")
	return append(evs[:i+1:i+1], append([]*jsonObject{end}, evs[i+1:]...)...), nil
}

// promptBlocked answers with the prompt blocked: one event with
// promptFeedback.blockReason, the usage and no candidate.
func promptBlocked(evs []*jsonObject) ([]*jsonObject, error) {
	if len(evs) == 0 {
		return nil, fmt.Errorf("no event: %w", ErrNotApplicable)
	}
	ev := evs[len(evs)-1].clone()
	ev.del("candidates")
	fb := &jsonObject{}
	fb.set("blockReason", "PROHIBITED_CONTENT")
	ev.setAfter("", "promptFeedback", fb)
	usage := &jsonObject{}
	usage.set("promptTokenCount", json.Number("100"))
	usage.set("totalTokenCount", json.Number("100"))
	ev.set("usageMetadata", usage)
	return []*jsonObject{ev}, nil
}
