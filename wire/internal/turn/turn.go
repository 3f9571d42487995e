// Package turn counts where a conversation stands in a request body, for
// the formats whose requests carry a "messages" array with roles (chat
// completions, Anthropic Messages).
package turn

import "encoding/json"

// ByRole reads a request's model and counts its assistant messages: the turn
// the request asks for (1 for the first request). A body that does not read
// is turn 1 of no model.
func ByRole(body []byte) (model string, turn int) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &req) // a matcher reports what does not fit
	turn = 1
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turn++
		}
	}
	return req.Model, turn
}
