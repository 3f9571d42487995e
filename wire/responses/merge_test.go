package responses

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/google/go-cmp/cmp"
)

// TestMergeResponsesStreamErrors: every stream that ends in an error returns
// the error callers test for, and the turn merged up to it (nothing lost).
func TestMergeResponsesStreamErrors(t *testing.T) {
	glob := agent.ToolCall{ID: "call_A1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}}
	tests := []struct {
		fixture string
		reason  string
		is      error // errors.Is target, or nil for a *StreamError
		stream  *agent.StreamError
		want    *agent.Turn
	}{
		{"closed_before_completed", "a whole call merged, then the stream closed", agent.ErrTruncatedStream, nil,
			&agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{glob}}},
		{"error_incomplete", "the arguments streamed so far are kept, no finish reason", nil,
			&agent.StreamError{Message: "the response is incomplete (max_output_tokens)", Type: "response.incomplete"},
			&agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{{ID: "call_A1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":`}}}}},
		{"error_failed", "the text before the failure is kept, never finished", nil,
			&agent.StreamError{Message: "The model produced invalid content.", Type: "response.failed", Code: "server_error"},
			&agent.Turn{Text: "Let me "}},
		{"error_event", "an error event's code and message", nil,
			&agent.StreamError{Message: "Rate limit reached for gpt-5.1-codex. Please try again in 20s.", Code: "rate_limit_exceeded"},
			&agent.Turn{Text: "Let me "}},
		{"error_event_nested", "an error object inside the error event", nil,
			&agent.StreamError{Message: "upstream overloaded", Type: "overloaded_error", Code: "529"},
			&agent.Turn{Text: "Let me "}},
		{"second_response", "the first response stands; the second is refused", ErrSecondResponse, nil,
			&agent.Turn{FinishReason: "tool_calls", ToolTurn: true, ToolCalls: []agent.ToolCall{glob}, Usage: &agent.Usage{PromptTokens: 812, CompletionTokens: 64, TotalTokens: 876}}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			data, err := os.ReadFile("testdata/streams/" + tt.fixture + ".sse")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Merge(bytes.NewReader(data))
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("%s: error %v, want one matching %v", tt.reason, err, tt.is)
			}
			if tt.stream != nil {
				var se *agent.StreamError
				if !errors.As(err, &se) {
					t.Fatalf("%s: error %v (%T), want a *StreamError", tt.reason, err, err)
				}
				if diff := cmp.Diff(tt.stream, se); diff != "" {
					t.Errorf("%s: stream error (-want +got):\n%s", tt.reason, diff)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: partial turn (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

// TestMergeResponsesAddedArguments: arguments that only output_item.added
// carried are the call's; a call whose deltas came as well takes the
// deltas.
func TestMergeResponsesAddedArguments(t *testing.T) {
	stream := `data: {"type":"response.created","response":{"id":"resp_1","output":[]}}

data: {"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"glob","arguments":"{\"a\":1}"}}

data: {"type":"response.output_item.added","output_index":1,"item":{"id":"fc_2","type":"function_call","call_id":"call_2","name":"grep","arguments":"{\"old\":0}"}}

data: {"type":"response.function_call_arguments.delta","item_id":"fc_2","output_index":1,"delta":"{\"b\":2}"}

data: {"type":"response.completed","response":{"id":"resp_1","output":[]}}

`
	got, err := Merge(bytes.NewReader([]byte(stream)))
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.ToolCall{
		{ID: "call_1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"a":1}`}},
		{ID: "call_2", Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: `{"b":2}`}},
	}
	if diff := cmp.Diff(want, got.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}
