package chat

import (
	"encoding/json"

	"github.com/agentvcr/agentvcr/agent"
)

// end returns the merged turn of a stream that ended properly, or the turn
// with an *agent.OutputLimitError when finish_reason "length" came after a
// call whose arguments are not valid JSON: the output token limit cut the
// call (goose #11838, strands-agents #4135), which must not run. A "length"
// turn whose calls are whole, or that has no call, is a turn.
func (m *merger) end() (*agent.Turn, error) {
	t := m.turn()
	if t.FinishReason != "length" {
		return t, nil
	}
	for _, c := range t.ToolCalls {
		if !json.Valid([]byte(c.Function.Arguments)) {
			return t, &agent.OutputLimitError{Reason: `finish_reason "length"`, Name: c.Function.Name, ID: c.ID}
		}
	}
	return t, nil
}
