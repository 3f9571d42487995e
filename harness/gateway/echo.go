package gateway

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
)

// ErrEchoMissing marks a request the scripted gateway refused because it did
// not send back what an earlier reply asked to have echoed: a call's thought
// signature (Gemini) or a tool-call turn's reasoning_content (DeepSeek's
// thinking mode). Both providers answer such a request with a 400.
var ErrEchoMissing = errors.New("request does not echo what the model sent")

// checkEcho checks that every assistant message of the request carries what
// the script's reply to it sent and wants back: the reply's Reasoning as
// reasoning_content when the reply made calls, and each call's
// ThoughtSignature in extra_content.google.thought_signature. The error
// texts are the providers' own, in substance: DeepSeek (opencode #9397) and
// Gemini (ai.google.dev thought-signatures; continuedev/continue #8785; a
// changed signature is "Invalid thought signature").
func checkEcho(s Script, msgs []agent.Message) error {
	turn := 0
	for pos, m := range msgs {
		if m.Role != agent.RoleAssistant {
			continue
		}
		if turn >= len(s.Turns) {
			return nil // the gateway answers a too-long conversation itself
		}
		r := s.Turns[turn]
		turn++
		if r.Reasoning != "" && len(r.Calls) > 0 && m.ReasoningContent() != r.Reasoning {
			if m.ReasoningContent() == "" {
				return fmt.Errorf("%w: Missing reasoning_content field in the assistant message at message index %d", ErrEchoMissing, pos)
			}
			return fmt.Errorf("%w: reasoning_content of the assistant message at message index %d is not the one the model sent", ErrEchoMissing, pos)
		}
		for i, c := range r.Calls {
			if c.ThoughtSignature == "" {
				continue
			}
			sent := ""
			if i < len(m.ToolCalls) {
				sent = thoughtSignature(m.ToolCalls[i].ExtraContent)
			}
			switch {
			case sent == "":
				return fmt.Errorf("%w: Function call is missing a thought_signature in functionCall parts (function call %s, message index %d, position %d)",
					ErrEchoMissing, c.Name, pos, i)
			case sent != c.ThoughtSignature:
				return fmt.Errorf("%w: Invalid thought signature (function call %s, message index %d, position %d)", ErrEchoMissing, c.Name, pos, i)
			}
		}
	}
	return nil
}

// thoughtSignature reads extra_content.google.thought_signature, "" when
// there is none.
func thoughtSignature(extra json.RawMessage) string {
	var e extraContent
	if len(extra) == 0 || json.Unmarshal(extra, &e) != nil {
		return ""
	}
	return e.Google.ThoughtSignature
}
