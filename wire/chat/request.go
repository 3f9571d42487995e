package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/tools"
)

// request is the body of every request; its field order is the key order.
type request struct {
	Model    string             `json:"model"`
	Messages []agent.Message    `json:"messages"`
	Tools    []tools.Definition `json:"tools,omitempty"`
	Stream   bool               `json:"stream"`
}

// Body returns the exact bytes a client sends:
// {"model":..,"messages":[..],"tools":[..],"stream":true}. The same input
// always gives the same bytes; "tools" is left out when there are none
// (gateways reject an empty array).
func Body(model string, msgs []agent.Message, defs []tools.Definition) ([]byte, error) {
	if msgs == nil {
		msgs = []agent.Message{}
	}
	return json.Marshal(request{Model: model, Messages: msgs, Tools: defs, Stream: true})
}

// Decode reads a chat-completions request the way a server sees it and
// checks agent.CheckMessages on its messages.
func Decode(body []byte) (agent.DecodedRequest, error) {
	var req struct {
		Model    string          `json:"model"`
		Messages []agent.Message `json:"messages"`
		Stream   bool            `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return agent.DecodedRequest{}, fmt.Errorf("body is not valid JSON: %w", err)
	}
	return agent.DecodedRequest{Model: req.Model, Stream: req.Stream, Messages: req.Messages}, agent.CheckMessages(req.Messages)
}
