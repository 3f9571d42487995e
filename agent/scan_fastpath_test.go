package agent

import "testing"

// The events that make most of a Messages or Responses stream take the fast
// path (no encoding/json) and allocate nothing: a fast path that declines
// them still merges right, only slower, so only this test sees it.
func TestFastPathsTakeTheCommonEvents(t *testing.T) {
	messages := []struct{ event, typ string }{
		{`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"grep","input":{}}}`, "content_block_start"},
		{`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`, "content_block_start"},
		{`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"pattern\":"}}`, "content_block_delta"},
		{`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me look"}}`, "content_block_delta"},
		{`{"type":"content_block_stop","index":1}`, "content_block_stop"},
		{`{"type":"ping"}`, "ping"},
		{`{"type":"message_stop"}`, "message_stop"},
	}
	for _, tt := range messages {
		var d blockDelta
		data := []byte(tt.event)
		if got := scanEvent(data, &d); got != tt.typ {
			t.Errorf("scanEvent(%s) = %q, want %q", tt.event, got, tt.typ)
		}
		if allocs := testing.AllocsPerRun(50, func() { scanEvent(data, &d) }); allocs != 0 {
			t.Errorf("scanEvent(%s): %v allocations, want 0", tt.event, allocs)
		}
	}
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
