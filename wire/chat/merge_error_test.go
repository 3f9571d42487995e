package chat

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func mergeFile(t *testing.T, name string) (*agent.Turn, error) {
	t.Helper()
	f, err := os.Open("testdata/streams/" + name + ".sse")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Merge(f)
}

// A stream error returns what was merged so far together with the error.
func TestMergeStreamErrorKeepsPartialTurn(t *testing.T) {
	tests := []struct {
		reason    string
		fixture   string
		wantTurn  *agent.Turn
		wantError *agent.StreamError // nil: the error is ErrTruncatedStream
	}{
		{
			reason:    "openai error object after text keeps the text",
			fixture:   "error_object",
			wantTurn:  &agent.Turn{Text: `The answer is "`, ToolCalls: []agent.ToolCall{}},
			wantError: &agent.StreamError{Message: "The server had an error while processing your request. Sorry about that!", Type: "server_error"},
		},
		{
			reason:    "vllm object:error keeps the call merged so far",
			fixture:   "error_object_type",
			wantTurn:  &agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("call_v1", "glob", `{"pat`)}},
			wantError: &agent.StreamError{Message: "The decoder prompt (length 40961) is longer than the maximum model length of 40960.", Type: "BadRequestError", Code: "400"},
		},
		{
			reason:    "event: error keeps the text",
			fixture:   "error_event",
			wantTurn:  &agent.Turn{Text: "Let me ", ToolCalls: []agent.ToolCall{}},
			wantError: &agent.StreamError{Message: "Overloaded", Type: "overloaded_error"},
		},
		{
			reason:  "an error chunk after partial calls keeps both calls; its finish_reason is not merged",
			fixture: "error_after_partial_calls",
			wantTurn: &agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{
				streamtest.Call("call_p1", "glob", `{"pattern":"**/*.js"}`),
				streamtest.Call("call_p2", "read_file", `{"path":"src/`),
			}},
			wantError: &agent.StreamError{Message: "Provider returned error", Code: "502"},
		},
		{
			reason:   "a truncated stream keeps the partial call",
			fixture:  "truncated_stream",
			wantTurn: &agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("call_tr1", "read_file", `{"path":"src/ca`)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			turn, err := mergeFile(t, tt.fixture)
			if diff := cmp.Diff(tt.wantTurn, turn); diff != "" {
				t.Errorf("partial turn (-want +got):\n%s", diff)
			}
			if tt.wantError == nil {
				if !errors.Is(err, agent.ErrTruncatedStream) {
					t.Fatalf("err = %v, want ErrTruncatedStream", err)
				}
				return
			}
			var se *agent.StreamError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want *StreamError", err, err)
			}
			if diff := cmp.Diff(tt.wantError, se); diff != "" {
				t.Errorf("stream error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStreamErrorShapes(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"error as a bare string (ollama native)", `data: {"error":"model not found"}`, "stream error: model not found"},
		{"error object without a message shows the data", `data: {"error":{"code":"rate_limited"}}`, `stream error: {"error":{"code":"rate_limited"}} (code rate_limited)`},
		{"event: error with non-JSON data", "event: error\ndata: upstream went away", "stream error: upstream went away"},
		{"event: error with no data", "event: error\n", "stream error: (no details)"},
		{"event: error with a top-level message", `event: error` + "\n" + `data: {"message":"boom","code":13}`, "stream error: boom (code 13)"},
		{"object:error with no message", `data: {"object":"error"}`, `stream error: {"object":"error"}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			_, err := Merge(strings.NewReader(tt.in + "\n\n"))
			var se *agent.StreamError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want *StreamError", err, err)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeStreamUsage(t *testing.T) {
	tests := []struct {
		reason  string
		fixture string
		want    *agent.Usage
	}{
		{"a usage-only last chunk with choices []", "envelope_empty_choices_and_usage_last", &agent.Usage{PromptTokens: 120, CompletionTokens: 18, TotalTokens: 138}},
		{"usage on a second finish chunk", "finish_twice", &agent.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}},
		{"no usage at all", "index_from_1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			turn, err := mergeFile(t, tt.fixture)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, turn.Usage); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
		})
	}
}

// Usage in every chunk (SiliconFlow, Groq): the last one is taken, never a sum.
func TestMergeStreamUsageLastNotSummed(t *testing.T) {
	in := `data: {"choices":[{"delta":{"content":"a"}}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}` + "\n\n" +
		`data: {"choices":[{"delta":{"content":"b"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}` + "\n\n" +
		`data: {"choices":[],"usage":null}` + "\n\n"
	turn, err := Merge(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&agent.Usage{PromptTokens: 9, CompletionTokens: 2, TotalTokens: 11}, turn.Usage); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
}

func TestMergeStreamBadChunks(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"data that is not JSON", "data: : OPENROUTER PROCESSING", "chunk 1 is not a valid chunk: invalid character ':' looking for beginning of value"},
		{"a chunk that is a JSON string", `data: "ping"`, "chunk 1 is not a valid chunk: json: cannot unmarshal string into Go value of type chat.chunk"},
		{"an index that is not an integer", `data: {"choices":[{"delta":{"tool_calls":[{"index":"x"}]}}]}`, `chunk 1 is not a valid chunk: tool call index "x" is not an integer`},
		{"two JSON values in one event (broken framing)", `data: {"choices":[]}{"choices":[]}`, "chunk 1 is not a valid chunk: data after the JSON value"},
		{"a JSON object cut short", `data: {"choices":[`, "chunk 1 is not a valid chunk: unexpected EOF"},
		{"a number", `data: 42`, "chunk 1 is not a valid chunk: json: cannot unmarshal number into Go value of type chat.chunk"},
		{"content that is not a string", `data: {"choices":[{"delta":{"content":7}}]}`, "chunk 1 is not a valid chunk: content is 7, not a string or an array of parts"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			_, err := Merge(strings.NewReader(tt.in + "\n\n"))
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
