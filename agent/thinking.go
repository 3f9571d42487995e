package agent

// Thinking types.
const (
	ThinkingText     = "thinking"          // readable reasoning with a signature
	ThinkingRedacted = "redacted_thinking" // encrypted reasoning: Data only
)

// Thinking is a reasoning block a model sent that a format requires back,
// unchanged and in order, in the next request (Anthropic verifies the
// signature of every thinking block of the assistant message that made the
// tool calls). The chat-completions body does not carry it.
type Thinking struct {
	Type      string // ThinkingText or ThinkingRedacted
	Text      string // ThinkingText: the reasoning
	Signature string // ThinkingText: the signature the API checks
	Data      string // ThinkingRedacted: the opaque data
}
