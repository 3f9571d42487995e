package messages

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/agent"
)

// end returns the merged turn of a stream that ended properly, or the turn
// with an *agent.OutputLimitError when stop_reason "max_tokens" came after a
// tool_use whose input is not valid JSON: the output token limit cut the
// call, which must not run. A max_tokens turn whose calls are whole, or
// that has none, is a turn.
func (m *msgMerger) end() (*agent.Turn, error) {
	t := m.turn()
	if t.FinishReason != "max_tokens" {
		return t, nil
	}
	for _, c := range t.ToolCalls {
		if !json.Valid([]byte(c.Function.Arguments)) {
			return t, &agent.OutputLimitError{Reason: `stop_reason "max_tokens"`, Name: c.Function.Name, ID: c.ID}
		}
	}
	return t, nil
}
