package agent

import (
	"errors"
	"fmt"
)

// ErrInvalidMessages is wrapped by every error CheckMessages returns.
var ErrInvalidMessages = errors.New("invalid messages")

// CheckMessages checks the invariants a gateway enforces on every request:
// each tool call of an assistant message has a non-empty id, unique within that
// message, and exactly one tool message answers it; those tool messages follow
// the assistant message directly; and every tool message answers a call of the
// assistant message it follows. The error names the first violation by its
// message position (0-based) and wraps ErrInvalidMessages.
func CheckMessages(msgs []Message) error {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch {
		case m.Role == RoleTool:
			return invalid(i, "tool result %q does not answer a call of the assistant message before it", m.ToolCallID)
		case m.Role == RoleAssistant && len(m.ToolCalls) > 0:
			next, err := checkResults(msgs, i)
			if err != nil {
				return err
			}
			i = next - 1
		}
	}
	return nil
}

// checkResults checks the assistant message at i against the tool messages
// that follow it and returns the position after them.
func checkResults(msgs []Message, i int) (int, error) {
	pending := make(map[string]bool, len(msgs[i].ToolCalls))
	for _, c := range msgs[i].ToolCalls {
		if c.ID == "" {
			return 0, invalid(i, "tool call %q has an empty id", c.Function.Name)
		}
		if _, dup := pending[c.ID]; dup {
			return 0, invalid(i, "tool call id %q appears twice", c.ID)
		}
		pending[c.ID] = false
	}
	j := i + 1
	for ; j < len(msgs) && msgs[j].Role == RoleTool; j++ {
		id := msgs[j].ToolCallID
		answered, ok := pending[id]
		if !ok {
			return 0, invalid(j, "tool result %q points at no call of message %d", id, i)
		}
		if answered {
			return 0, invalid(j, "tool call %q has a second result", id)
		}
		pending[id] = true
	}
	for _, c := range msgs[i].ToolCalls {
		if !pending[c.ID] {
			return 0, invalid(i, "tool call %q has no result", c.ID)
		}
	}
	return j, nil
}

func invalid(pos int, format string, args ...any) error {
	return fmt.Errorf("%w: message %d: %s", ErrInvalidMessages, pos, fmt.Sprintf(format, args...))
}
