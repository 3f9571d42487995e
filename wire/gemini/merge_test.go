package gemini

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func mergeFixture(t *testing.T, name string) (*agent.Turn, error) {
	t.Helper()
	data, err := os.ReadFile("testdata/streams/" + name + ".sse")
	if err != nil {
		t.Fatal(err)
	}
	return Merge(bytes.NewReader(data))
}

// What the goldens do not print: usage, the kind of each error, and the
// partial turn an error keeps.
func TestMergeFixtureDetails(t *testing.T) {
	tests := []struct {
		fixture string
		is      error // errors.Is target; nil for no error
		want    *agent.Turn
	}{
		{"usage_only_last", nil, &agent.Turn{Text: "Done: all 12 tests pass.", FinishReason: "STOP",
			Usage: &agent.Usage{PromptTokens: 2048, CompletionTokens: 11, TotalTokens: 2059}}},
		{"thought_parts", nil, &agent.Turn{Text: "divide() must throw on a zero divisor.", FinishReason: "STOP",
			Usage:    &agent.Usage{PromptTokens: 600, CompletionTokens: 105, TotalTokens: 705},
			Thinking: []agent.Thinking{{Type: agent.ThinkingReasoning, Text: "**Finding the bug**\n\nThe test divides by zero and expects a throw."}}}},
		{"cut_short", agent.ErrTruncatedStream, &agent.Turn{Text: "The test fails because divide()"}},
		{"malformed_function_call_no_content", ErrMalformedFunctionCall, &agent.Turn{FinishReason: "MALFORMED_FUNCTION_CALL",
			Usage: &agent.Usage{PromptTokens: 2595, TotalTokens: 2595}}},
		// The partial call a cut keeps shows what came; the error says it must not run.
		{"args_streamed_cut", agent.ErrTruncatedStream, &agent.Turn{ToolTurn: true,
			ToolCalls: []agent.ToolCall{{ID: "call_0", Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"src/ca"}`}}}}},
		{"args_streamed_max_tokens", agent.ErrOutputLimit, &agent.Turn{ToolTurn: true, FinishReason: "MAX_TOKENS",
			Usage:     &agent.Usage{PromptTokens: 600, CompletionTokens: 8192, TotalTokens: 8792},
			ToolCalls: []agent.ToolCall{{ID: "call_0", Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"src/ca"}`}}}}},
		{"malformed_function_call_after_call", ErrMalformedFunctionCall, &agent.Turn{ToolTurn: true, FinishReason: "MALFORMED_FUNCTION_CALL",
			Usage:     &agent.Usage{PromptTokens: 600, CompletionTokens: 30, TotalTokens: 630},
			ToolCalls: []agent.ToolCall{{ID: "call_0", Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"src/calc.js"}`}}}}},
		{"unexpected_tool_call", ErrUnexpectedToolCall, &agent.Turn{ToolTurn: true, FinishReason: "UNEXPECTED_TOOL_CALL",
			Usage:     &agent.Usage{PromptTokens: 300, CompletionTokens: 12, TotalTokens: 312},
			ToolCalls: []agent.ToolCall{{ID: "call_0", Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"src/calc.js"}`}}}}},
		{"prompt_blocked", ErrBlocked, &agent.Turn{FinishReason: "PROHIBITED_CONTENT", Usage: &agent.Usage{PromptTokens: 80, TotalTokens: 80},
			Warnings: []string{"the prompt was blocked (promptFeedback.blockReason PROHIBITED_CONTENT)"}}},
		{"blocked_answer_no_content", ErrBlocked, &agent.Turn{FinishReason: "PROHIBITED_CONTENT", Usage: &agent.Usage{PromptTokens: 80, TotalTokens: 80}}},
		{"blocked_after_text", nil, &agent.Turn{Text: "Here is ", FinishReason: "SAFETY", Usage: &agent.Usage{PromptTokens: 80, CompletionTokens: 3, TotalTokens: 83}}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := mergeFixture(t, tt.fixture)
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v, want %v", err, tt.is)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// An error object after the 200 is a *agent.StreamError with Google's
// status as its type and the code, and the text before it is kept.
func TestMergeErrorObject(t *testing.T) {
	got, err := mergeFixture(t, "error_after_200")
	var se *agent.StreamError
	if !errors.As(err, &se) || se.Type != "UNAVAILABLE" || se.Code != "503" || se.Message != "The model is overloaded. Please try again later." {
		t.Fatalf("error = %#v, want UNAVAILABLE 503", err)
	}
	if got.Text != "Looking at " {
		t.Errorf("text %q, want the text before the error", got.Text)
	}
	// The fault the harness injects in this format reads the same way.
	_, err = Merge(strings.NewReader(Format.ErrorEvent))
	if !errors.As(err, &se) || se.Type != "INTERNAL" || se.Code != "500" {
		t.Errorf("Format.ErrorEvent merged to %v, want an INTERNAL 500 stream error", err)
	}
}

// The errors of an empty blocked turn say which was blocked and why, and
// the malformed call's names the calls it refuses.
func TestMergeRefusalErrors(t *testing.T) {
	_, err := mergeFixture(t, "prompt_blocked")
	var be *BlockedError
	if !errors.As(err, &be) || *be != (BlockedError{Prompt: true, Reason: "PROHIBITED_CONTENT"}) {
		t.Errorf("prompt_blocked: %#v", err)
	}
	_, err = mergeFixture(t, "blocked_answer_no_content")
	if !errors.As(err, &be) || *be != (BlockedError{Reason: "PROHIBITED_CONTENT", Message: "The response was blocked."}) {
		t.Errorf("blocked_answer_no_content: %#v", err)
	}
	_, err = mergeFixture(t, "malformed_function_call_after_call")
	if errors.Is(err, ErrUnexpectedToolCall) || errors.Is(err, ErrBlocked) {
		t.Errorf("MALFORMED_FUNCTION_CALL matches another refusal: %v", err)
	}
	got, err := mergeFixture(t, "error_line_cancelled")
	var se *agent.StreamError
	if !errors.As(err, &se) || *se != (agent.StreamError{Message: "The operation was cancelled.", Type: "CANCELLED", Code: "499"}) || got.Text != "Looking at the tests" {
		t.Errorf("error_line_cancelled: %#v, text %q", err, got.Text)
	}
}

// Bad input gets a clear error that names it, and nothing merged before is
// lost.
func TestMergeBadEvent(t *testing.T) {
	stream := `data: {"candidates":[{"content":{"parts":[{"text":"kept"}]}}]}` + "\n\n" + "data: {\"candidates\":[\n\n"
	got, err := Merge(strings.NewReader(stream))
	if err == nil || !strings.Contains(err.Error(), `decoding event "{\"candidates\":["`) {
		t.Errorf("error %v, want one naming the event", err)
	}
	if got.Text != "kept" {
		t.Errorf("text %q, want kept", got.Text)
	}
}

// Every fixture merges to the same turn however its bytes are split.
func TestMergeFixturesInPieces(t *testing.T) {
	for _, path := range streamtest.Fixtures(t, "testdata/streams") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := Merge(bytes.NewReader(data))
		for seed := range uint64(8) {
			got, err := Merge(streamtest.NewPieceReader(data, seed, 7))
			if streamtest.ErrText(err) != streamtest.ErrText(wantErr) {
				t.Errorf("%s seed %d: error %v, want %v", path, seed, err, wantErr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s seed %d: (-whole +pieces):\n%s", path, seed, diff)
			}
		}
	}
}

func FuzzMergeRechunk(f *testing.F) {
	streamtest.FuzzRechunk(f, streamtest.Fixtures(f, "testdata/streams"), Merge)
}

func TestMergeArgs(t *testing.T) {
	tests := []struct{ base, more, want string }{
		{"{}", `{"a":1}`, `{"a":1}`},
		{`{"a":1,"b":2}`, `{"b":3,"c":"中"}`, `{"a":1,"b":3,"c":"中"}`},
		{`{"a":1}`, "{}", `{"a":1}`},
		{`{"a":1}`, `[1]`, `[1]`},
	}
	for _, tt := range tests {
		if got := mergeArgs(tt.base, tt.more); got != tt.want {
			t.Errorf("mergeArgs(%s, %s) = %s, want %s", tt.base, tt.more, got, tt.want)
		}
	}
}
