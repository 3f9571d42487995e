package agent

// Thinking types.
const (
	ThinkingText     = "thinking"          // readable reasoning, echoed (with its signature in Messages)
	ThinkingRedacted = "redacted_thinking" // encrypted reasoning: Data only
	// ThinkingReasoning is readable reasoning that is shown and never sent
	// back: chat completions' reasoning, reasoning_details and thinking or
	// reasoning content parts.
	ThinkingReasoning = "reasoning"
)

// Thinking is one block of the model's reasoning, the one representation of
// reasoning in every format. Blocks a format requires back are echoed
// unchanged and in order in the next request: Anthropic verifies the
// signature of every thinking block of the assistant message that made the
// tool calls; chat completions send the ThinkingText blocks of a tool-call
// turn as reasoning_content (DeepSeek's thinking mode answers 400 without
// it). ThinkingReasoning blocks are never sent.
type Thinking struct {
	Type      string // ThinkingText or ThinkingRedacted
	Text      string // ThinkingText: the reasoning
	Signature string // ThinkingText: the signature the API checks
	Data      string // ThinkingRedacted: the opaque data
}
