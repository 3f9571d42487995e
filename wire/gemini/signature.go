package gemini

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/agent"
)

// Gemini's thought signature of a call is kept on agent.ToolCall.ExtraContent
// in the shape Gemini's OpenAI-compatible endpoint gives it in chat
// completions, {"google":{"thought_signature":"…"}}: one representation
// whichever of the two formats read the call, so a call's signature reads
// and echoes the same way in both.
type extraContent struct {
	Google struct {
		ThoughtSignature string `json:"thought_signature"`
	} `json:"google"`
}

// Signature is the thought signature a call carries in its ExtraContent
// ("" when none).
func Signature(c agent.ToolCall) string {
	var e extraContent
	if len(c.ExtraContent) == 0 || json.Unmarshal(c.ExtraContent, &e) != nil {
		return ""
	}
	return e.Google.ThoughtSignature
}

// WithSignature returns the ExtraContent that carries sig, nil for "".
func WithSignature(sig string) json.RawMessage {
	if sig == "" {
		return nil
	}
	var e extraContent
	e.Google.ThoughtSignature = sig
	b, _ := json.Marshal(e)
	return b
}
