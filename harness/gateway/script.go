package gateway

import "fmt"

// A Script is the model's side of one conversation, played by the scripted
// gateway: reply N answers the request that carries N-1 assistant messages.
// The gateway is stateless; the conversation itself says where it stands.
type Script struct {
	// Name is what a request puts in "model" to pick this script.
	Name string
	// Turns are the model's turns, in order.
	Turns []ScriptTurn
}

// A ScriptTurn is one model turn: optional reasoning and text, then tool calls.
type ScriptTurn struct {
	// Reasoning, when not empty, is streamed first as
	// delta.reasoning_content, as DeepSeek's thinking mode does. On a reply
	// with calls the gateway then wants it back, exactly, on that assistant
	// message of every later request (reasoning_content), and answers 400
	// like DeepSeek when it is missing.
	Reasoning string
	// Text is the assistant's content, streamed before the calls.
	Text string
	// Calls are the tool calls of this turn, streamed in the clean shape
	// (index from 0, id and name in the first piece, arguments in pieces).
	Calls []ScriptCall
	// FinishReason, when set, is sent as the turn's finish reason; else the
	// format's own for a turn with calls or without (chat completions:
	// "tool_calls" or "stop").
	FinishReason string
	// Status, when not zero, answers with this HTTP status and an error
	// body in the request's format instead of a stream (429, 500, ...).
	Status int
}

// A ScriptCall is one tool call. Arguments is sent as written, so a script
// can send arguments that are not valid JSON.
type ScriptCall struct {
	Name      string
	Arguments string
	// ThoughtSignature, when not empty, is sent in the call's first piece as
	// extra_content.google.thought_signature, as Gemini's OpenAI-compatible
	// endpoint does. The gateway then wants the call's extra_content back,
	// exactly, in every later request, and answers 400 like Gemini when it
	// is missing.
	ThoughtSignature string
}

// ErrorScripts answer their first request with an HTTP error, the way a
// gateway refuses a request: http_429 (rate limited), http_500 and http_503.
// They test what a live run shows; no cassette is recorded from them.
func ErrorScripts() []Script {
	var out []Script
	for _, status := range []int{429, 500, 503} {
		out = append(out, Script{Name: fmt.Sprintf("http_%d", status), Turns: []ScriptTurn{{Status: status}}})
	}
	return out
}
