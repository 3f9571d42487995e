package agent

import (
	"errors"
	"strings"
)

// ErrTruncatedStream is returned when a stream ends with neither a
// finish_reason nor [DONE]: the turn may be incomplete.
var ErrTruncatedStream = errors.New("stream ended without a finish_reason or [DONE]")

// Usage is the token count a gateway reports. The last one in a stream wins.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Turn is one merged model response.
type Turn struct {
	Text         string     // all answer text (content, text parts, refusal), in order
	FinishReason string     // the first non-empty finish_reason
	ToolTurn     bool       // FinishReason == "tool_calls" or at least one call merged
	ToolCalls    []ToolCall // sorted by index, ids and "{}" filled in
	Usage        *Usage     // the last usage seen, nil when none
	// Thinking is the model's reasoning, in stream order, in every format:
	// shown apart (ReasoningText), never answer text. Chat completions make a
	// ThinkingText block of reasoning_content (echoed on tool-call turns) and
	// a ThinkingReasoning block of reasoning, reasoning_details and thinking
	// or reasoning content parts (never sent back).
	Thinking []Thinking
	Warnings []string // shapes the merger noticed and worked around; nil when none
}

// ReasoningText is the readable text of the turn's reasoning blocks, joined.
func (t *Turn) ReasoningText() string {
	var b strings.Builder
	for _, th := range t.Thinking {
		b.WriteString(th.Text)
	}
	return b.String()
}
