package agent

import "net/http"

// AnthropicVersion is the anthropic-version header every Messages request
// carries.
const AnthropicVersion = "2023-06-01"

// MessagesMaxTokens is the max_tokens of every Messages request (the API
// requires one).
const MessagesMaxTokens = 8192

// AnthropicMessages is the Anthropic Messages format: POST {base}/v1/messages
// with x-api-key and anthropic-version headers, MessagesRequestBody,
// MergeMessagesStream and CheckAnthropicMessages.
var AnthropicMessages = &API{
	Name:       "messages",
	Path:       "/v1/messages",
	KeyEnv:     "ANTHROPIC_API_KEY",
	BaseURLEnv: "ANTHROPIC_BASE_URL",
	Header: func(h http.Header, key string) {
		h.Set("anthropic-version", AnthropicVersion)
		if key != "" {
			h.Set("x-api-key", key)
		}
	},
	Body:  MessagesRequestBody,
	Merge: MergeMessagesStream,
	Check: CheckAnthropicMessages,
}
