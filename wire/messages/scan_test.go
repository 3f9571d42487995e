package messages

import "testing"

// The events that make most of a Messages stream take the fast
// path (no encoding/json) and allocate nothing: a fast path that declines
// them still merges right, only slower, so only this test sees it.
func TestFastPathTakesTheCommonEvents(t *testing.T) {
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
}
