package responses

import "testing"

// The events that make most of a Responses stream take the fast path (no
// encoding/json) and allocate nothing: a fast path that declines them still
// merges right, only slower, so only this test sees it.
func TestFastPathTakesTheCommonEvents(t *testing.T) {
	responses := []string{
		`{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":1,"delta":"{\"pattern\":"}`,
		`{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Let me look"}`,
		`{"type":"response.function_call_arguments.done","sequence_number":9,"item_id":"fc_1","output_index":1,"arguments":"{\"pattern\":\"x\"}"}`,
		`{"type":"response.output_item.added","sequence_number":5,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"grep"}}`,
	}
	for _, ev := range responses {
		var d respDelta
		data := []byte(ev)
		if !scanRespDelta(data, &d) {
			t.Errorf("scanRespDelta(%s) declined", ev)
		}
		if allocs := testing.AllocsPerRun(50, func() { scanRespDelta(data, &d) }); allocs != 0 {
			t.Errorf("scanRespDelta(%s): %v allocations, want 0", ev, allocs)
		}
	}
}
