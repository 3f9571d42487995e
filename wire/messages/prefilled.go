package messages

import (
	"encoding/json"
	"fmt"
)

// prefilled adds the blocks a message_start already carries in
// message.content (vercel/ai's anthropic-message-start-prepopulated-content:
// code-execution results and a tool_use, with the stop_reason, and no
// content_block event after): each is a whole, stopped block at its
// position, read as a content_block_start's content_block (a tool_use's
// input is its arguments). A block that is not an object is an error.
func (m *msgMerger) prefilled(content []json.RawMessage) error {
	for i, raw := range content {
		var cb msgBlockStart
		if err := json.Unmarshal(raw, &cb); err != nil {
			return fmt.Errorf("event %d: message_start content block %d: %w", m.events, i, err)
		}
		b := m.startedBlock(&cb)
		if err := m.addBlock(i, b); err != nil {
			return err
		}
		b.stopped = true
	}
	return nil
}
