package chat

import (
	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// chunkError returns the stream error a decoded chunk carries, or nil.
func chunkError(c *chunk, data []byte) error {
	if jsonscan.Present(c.Error) {
		return agent.MemberError(c.Error, data)
	}
	if c.Object == "error" {
		return agent.BodyError(agent.ErrorBody{Message: c.Message, Type: c.Type, Code: c.Code}, data)
	}
	return nil
}
