package converse

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// Check checks what a ConverseStream request needs on top of
// agent.CheckMessages, on the messages as Body converts them (checkWire).
// The error wraps agent.ErrInvalidMessages.
func Check(msgs []agent.Message) error {
	if err := agent.CheckMessages(msgs); err != nil {
		return err
	}
	_, wire := toWire(msgs)
	return checkWire(wire)
}

// checkWire checks the rules the Converse API answers with a
// ValidationException when they are broken: the conversation starts with a
// user message and the roles alternate; every toolUse id of an assistant
// message is non-empty and unique, and the next message is a user message
// with a toolResult for each of them (as many results as uses, no other
// id); a toolResult anywhere else answers nothing. Positions are indexes
// in the request's messages, as the API's own messages name them.
func checkWire(msgs []message) error {
	for i, m := range msgs {
		switch {
		case i == 0 && m.Role != agent.RoleUser:
			return invalid("A conversation must start with a user message. Try again with a conversation that starts with a user message.")
		case i > 0 && m.Role == msgs[i-1].Role:
			return invalid("A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.")
		}
		if _, err := toolUseIDs(i, m); err != nil {
			return err
		}
		var before []string
		if i > 0 {
			before, _ = toolUseIDs(i-1, msgs[i-1])
		}
		if err := checkResults(i, m, before); err != nil {
			return err
		}
	}
	return nil
}

// toolUseIDs returns an assistant message's toolUse ids, checking each is
// set and unique; nil for a user message.
func toolUseIDs(i int, m message) ([]string, error) {
	if m.Role != agent.RoleAssistant {
		return nil, nil
	}
	var ids []string
	seen := map[string]bool{}
	for j, b := range m.Content {
		switch {
		case b.ToolResult != nil:
			return nil, invalid(fmt.Sprintf("messages.%d.content.%d: a toolResult block in an assistant message", i, j))
		case b.ToolUse == nil:
		case b.ToolUse.ToolUseID == "":
			return nil, invalid(fmt.Sprintf("messages.%d.content.%d.toolUse.toolUseId: an empty id", i, j))
		case seen[b.ToolUse.ToolUseID]:
			return nil, invalid(fmt.Sprintf("messages.%d.content.%d: toolUse id %s appears twice", i, j, b.ToolUse.ToolUseID))
		default:
			seen[b.ToolUse.ToolUseID] = true
			ids = append(ids, b.ToolUse.ToolUseID)
		}
	}
	return ids, nil
}

// checkResults checks the toolResult blocks of the user message at i
// against the toolUse ids of the message before it.
func checkResults(i int, m message, uses []string) error {
	if m.Role != agent.RoleUser {
		return nil
	}
	answered := map[string]bool{}
	n := 0
	for _, b := range m.Content {
		if b.ToolResult == nil {
			continue
		}
		n++
		answered[b.ToolResult.ToolUseID] = true
	}
	if n > len(uses) {
		return invalid(fmt.Sprintf("The number of toolResult blocks at messages.%d.content exceeds the number of toolUse blocks of previous turn.", i))
	}
	var missing []string
	for _, id := range uses {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return invalid(fmt.Sprintf("Expected toolResult blocks at messages.%d.content for the following Ids: %s", i, strings.Join(missing, ", ")))
	}
	return nil
}

func invalid(msg string) error { return fmt.Errorf("%w: %s", agent.ErrInvalidMessages, msg) }
