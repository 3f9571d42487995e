package responses

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestCustomToolCallBody(t *testing.T) {
	patch := "*** Begin Patch\n*** End Patch"
	custom := agent.ToolCall{ID: "call_p", Type: "custom", Function: agent.FunctionCall{Name: "apply_patch", Arguments: patch}}
	msgs := []agent.Message{
		{Role: agent.RoleUser, Content: "fix it"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{custom, streamtest.Call("call_r", "read_file", `{"path":"a"}`)}},
		{Role: agent.RoleTool, ToolCallID: "call_p", Content: "applied"},
		{Role: agent.RoleTool, ToolCallID: "call_r", Content: "text"},
	}
	got, err := Body("m", msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","input":[` +
		`{"type":"message","role":"user","content":"fix it"},` +
		`{"type":"custom_tool_call","call_id":"call_p","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"},` +
		`{"type":"function_call","call_id":"call_r","name":"read_file","arguments":"{\"path\":\"a\"}"},` +
		`{"type":"custom_tool_call_output","call_id":"call_p","output":"applied"},` +
		`{"type":"function_call_output","call_id":"call_r","output":"text"}],"stream":true}`
	if string(got) != want {
		t.Errorf("body:\n got %s\nwant %s", got, want)
	}
	dec, err := Decode(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(msgs, dec.Messages); diff != "" {
		t.Errorf("decoded messages (-sent +decoded):\n%s", diff)
	}
	if _, turn := Turn(got); turn != 2 {
		t.Errorf("Turn = %d, want 2", turn)
	}
}

func TestCustomToolCallMerge(t *testing.T) {
	ev := func(data string) string { return "data: " + data + "\n\n" }
	head := ev(`{"type":"response.created","response":{"id":"r"}}`) +
		ev(`{"type":"response.output_item.added","output_index":0,"item":{"id":"ctc","type":"custom_tool_call","call_id":"c","name":"apply_patch","input":""}}`)
	end := ev(`{"type":"response.completed","response":{"id":"r"}}`)
	tests := []struct {
		reason string
		events string
		want   string
	}{
		{"deltas alone", ev(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc","output_index":0,"delta":"a\n"}`) +
			ev(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc","output_index":0,"delta":"b"}`), "a\nb"},
		{"the done input wins", ev(`{"type":"response.custom_tool_call_input.delta","item_id":"ctc","output_index":0,"delta":"a"}`) +
			ev(`{"type":"response.custom_tool_call_input.done","item_id":"ctc","output_index":0,"input":"ab"}`), "ab"},
		{"only the item done carries it", ev(`{"type":"response.output_item.done","output_index":0,"item":{"id":"ctc","type":"custom_tool_call","call_id":"c","name":"apply_patch","input":"{not json"}}`), "{not json"},
		{"no input at all stays empty", "", ""},
	}
	for _, tt := range tests {
		turn, err := Merge(strings.NewReader(head + tt.events + end))
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		want := []agent.ToolCall{{ID: "c", Type: "custom", Function: agent.FunctionCall{Name: "apply_patch", Arguments: tt.want}}}
		if diff := cmp.Diff(want, turn.ToolCalls); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestResponseIDRotationIsOneResponse(t *testing.T) {
	ev := func(data string) string { return "data: " + data + "\n\n" }
	stream := ev(`{"type":"response.created","response":{"id":"r1"}}`) + ev(`{"type":"response.in_progress","response":{"id":"r2"}}`) +
		ev(`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"hi"}`) +
		ev(`{"type":"response.completed","response":{"id":"r3"}}`)
	turn, err := Merge(strings.NewReader(stream))
	if err != nil || turn.Text != "hi" {
		t.Fatalf("turn %+v, err %v", turn, err)
	}
	_, err = Merge(strings.NewReader(stream[:strings.Index(stream, "data: {\"type\":\"response.completed")] + ev(`{"type":"response.created","response":{"id":"r4"}}`)))
	if want := "a second response in one stream: r4 after r1 (event 4)"; err == nil || err.Error() != want {
		t.Errorf("a second response.created: err = %v, want %s", err, want)
	}
}

// TestWriteCustomToolCall: a custom call is written as a custom_tool_call
// item whose input streams in pieces, and merges back to itself.
func TestWriteCustomToolCall(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.js\n@@\n-x\n+y\n*** End Patch"
	r := agent.Turn{ToolCalls: []agent.ToolCall{
		{ID: "call_p", Type: "custom", Function: agent.FunctionCall{Name: "apply_patch", Arguments: patch}},
		streamtest.Call("call_g", "glob", `{"pattern":"*"}`),
	}}
	body := strings.Join(Write("m", "c", 0, &r), "")
	turn, err := Merge(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.ToolCalls, turn.ToolCalls); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if n := strings.Count(body, "event: response.custom_tool_call_input.delta\n"); n < 2 {
		t.Errorf("%d input deltas, want the input in pieces", n)
	}
}
