package messages

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/turn"
)

// AnthropicVersion is the anthropic-version header every Messages request
// carries.
const AnthropicVersion = "2023-06-01"

// MaxTokens is the max_tokens of every Messages request (the API requires
// one).
const MaxTokens = 8192

// endpoint is the path of every Messages request after the base URL, which
// is the API's root (ANTHROPIC_BASE_URL has no /v1).
const endpoint = "/v1/messages"

// Format is the Anthropic Messages format: POST {base}/v1/messages with
// x-api-key and anthropic-version headers, Body, Merge and Check.
var Format = &agent.Format{
	Name:           "messages",
	Title:          "Anthropic Messages",
	KeyEnv:         "ANTHROPIC_API_KEY",
	BaseURLEnv:     "ANTHROPIC_BASE_URL",
	ExampleBaseURL: "https://api.anthropic.com",
	Path:           func(string) string { return endpoint },
	Serves:         func(path string) bool { return strings.HasSuffix(path, endpoint) },
	BasePath:       "",
	Header: func(h http.Header, key string) {
		h.Set("anthropic-version", AnthropicVersion)
		if key != "" {
			h.Set("x-api-key", key)
		}
	},
	Key:           func(h http.Header) string { return h.Get("x-api-key") },
	Body:          Body,
	Merge:         Merge,
	Check:         Check,
	Decode:        Decode,
	Turn:          turn.ByRole,
	Write:         Write,
	Response:      Response,
	IsStreamEvent: isStreamEvent,
	ErrorEvent:    "event: error\n" + `data: {"type":"error","error":{"type":"overloaded_error","message":"agentvcr fault: the gateway failed mid-stream"}}` + "\n\n",
	ErrorBody:     ErrorBody,
}

// isStreamEvent: message_start, content_block_*, message_delta,
// message_stop and ping are Messages events.
func isStreamEvent(typ string, _ []byte) bool {
	return strings.HasPrefix(typ, "message_") || strings.HasPrefix(typ, "content_block_") || typ == "ping"
}

// ErrorBody is Anthropic's error body,
// {"type":"error","error":{"type":..,"message":..}}, its type following from
// the status (ErrorType); code is not part of the shape.
func ErrorBody(status int, code, message string) []byte {
	body, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": ErrorType(status), "message": message}})
	return body
}

// ErrorType is the Anthropic error type of an HTTP status, as the Messages
// API names it: authentication_error (401), not_found_error (404),
// rate_limit_error (429), overloaded_error (529), api_error (any other 5xx),
// invalid_request_error otherwise.
func ErrorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}
