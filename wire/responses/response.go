package responses

import (
	"encoding/json"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// Response renders t as the JSON body of a non-streamed Responses answer:
// the response object that Write's response.completed event carries (the
// same ids, items and status), which is what the API returns when
// "stream" is false.
func Response(model, conversation string, index int, t *agent.Turn) []byte {
	events := Write(model, conversation, index, t)
	last := events[len(events)-1]
	_, data, _ := strings.Cut(last, "\ndata: ")
	var completed struct {
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &completed); err != nil {
		panic(err) // Write's last event is always response.completed
	}
	return append(completed.Response, '\n')
}
