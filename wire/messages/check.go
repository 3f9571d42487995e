package messages

import (
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
)

// Check checks what a Messages request needs on top of
// CheckMessages, on the messages as Body converts them (see
// checkWire). The error wraps ErrInvalidMessages.
func Check(msgs []agent.Message) error {
	if err := agent.CheckMessages(msgs); err != nil {
		return err
	}
	_, turns := toWire(msgs)
	return checkWire(turns)
}

// checkWire checks the invariant the Messages API answers with a 400 when it
// is broken ("tool_use ids were found without tool_result blocks immediately
// after", anomalyco/opencode #5750): in an assistant message nothing follows
// a tool_use block but another tool_use, ids are non-empty and unique; the
// very next message is a user message that starts with exactly one
// tool_result per tool_use, before any other block; and no tool_result
// appears anywhere else. Positions are indexes in the request's messages.
func checkWire(turns []wireTurn) error {
	for i := 0; i < len(turns); i++ {
		t := turns[i]
		if t.Role != agent.RoleAssistant {
			for j, b := range t.Content {
				if b.Type == blockToolResult {
					return wireInvalid(i, "block %d: tool_result %q answers no tool_use of the message before it", j, b.ToolUseID)
				}
			}
			continue
		}
		ids, err := toolUseIDs(i, t)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			continue
		}
		if err := checkResultsTurn(turns, i, ids); err != nil {
			return err
		}
		i++ // the results were checked; the rest of that user message may be text
	}
	return nil
}

// toolUseIDs returns the tool_use ids of an assistant message, in order, and
// checks that nothing follows the first tool_use but tool_use blocks.
func toolUseIDs(i int, t wireTurn) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	for j, b := range t.Content {
		switch {
		case b.Type == blockToolUse:
			if b.ID == "" {
				return nil, wireInvalid(i, "block %d: tool_use %q has an empty id", j, b.Name)
			}
			if seen[b.ID] {
				return nil, wireInvalid(i, "block %d: tool_use id %q appears twice", j, b.ID)
			}
			seen[b.ID] = true
			ids = append(ids, b.ID)
		case b.Type == blockToolResult:
			return nil, wireInvalid(i, "block %d: tool_result in an assistant message", j)
		case len(ids) > 0:
			return nil, wireInvalid(i, "block %d: %s block after tool_use %q (nothing may follow a tool_use)", j, b.Type, ids[len(ids)-1])
		}
	}
	return ids, nil
}

// checkResultsTurn checks that the message after the assistant message at i
// starts with one tool_result per id, before any other block.
func checkResultsTurn(turns []wireTurn, i int, ids []string) error {
	if i+1 >= len(turns) || turns[i+1].Role != agent.RoleUser {
		return wireInvalid(i, "tool_use %q has no tool_result in the next message", ids[0])
	}
	pending := make(map[string]bool, len(ids))
	for _, id := range ids {
		pending[id] = false
	}
	next := turns[i+1].Content
	j := 0
	for ; j < len(next) && next[j].Type == blockToolResult; j++ {
		answered, ok := pending[next[j].ToolUseID]
		if !ok {
			return wireInvalid(i+1, "block %d: tool_result %q answers no tool_use of message %d", j, next[j].ToolUseID, i)
		}
		if answered {
			return wireInvalid(i+1, "block %d: tool_use %q has a second tool_result", j, next[j].ToolUseID)
		}
		pending[next[j].ToolUseID] = true
	}
	for _, id := range ids {
		if !pending[id] {
			return wireInvalid(i+1, "tool_use %q of message %d has no tool_result before the first other block", id, i)
		}
	}
	for k := j; k < len(next); k++ {
		if next[k].Type == blockToolResult {
			return wireInvalid(i+1, "block %d: tool_result %q comes after a %s block", k, next[k].ToolUseID, next[j].Type)
		}
	}
	return nil
}

func wireInvalid(pos int, format string, args ...any) error {
	return fmt.Errorf("%w: request message %d: %s", agent.ErrInvalidMessages, pos, fmt.Sprintf(format, args...))
}
