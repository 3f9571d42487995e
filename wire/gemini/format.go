package gemini

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// KeyHeader is the header that carries the API key (Google AI, and Vertex
// AI in express mode).
const KeyHeader = "x-goog-api-key"

// Format is Gemini's native API: POST
// {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the key in
// x-goog-api-key, Body, Merge and Check (every functionCall of a model turn
// answered by a functionResponse in the next user turn, in order). The
// model is in the path, not in the body; :generateContent is the same
// request answered without a stream.
var Format = &agent.Format{
	Name:           "gemini",
	Title:          "Gemini API",
	KeyEnv:         "GEMINI_API_KEY",
	BaseURLEnv:     "GOOGLE_GEMINI_BASE_URL",
	ExampleBaseURL: "https://generativelanguage.googleapis.com",
	Path:           func(model string) string { return modelsPrefix + model + streamMethod },
	WholePath:      func(model string) string { return modelsPrefix + model + wholeMethod },
	Query:          "alt=sse",
	PathModel:      PathModel,
	APIPath:        APIPath,
	Serves:         func(path string) bool { _, _, _, ok := cutPath(path); return ok },
	BasePath:       "",
	Header: func(h http.Header, key string) {
		if key != "" {
			h.Set(KeyHeader, key)
		}
	},
	Key:           Key,
	Body:          Body,
	Merge:         Merge,
	Check:         Check,
	Decode:        Decode,
	Turn:          Turn,
	Write:         Write,
	Response:      Response,
	IsStreamEvent: isStreamEvent,
	ErrorEvent:    "data: " + string(ErrorBody(http.StatusInternalServerError, "", "agentvcr fault: the gateway failed mid-stream")) + "\r\n\r\n",
	ErrorBody:     ErrorBody,
}

// isStreamEvent: a Gemini event has no type; its data is a
// GenerateContentResponse, an object with "candidates", "usageMetadata",
// "promptFeedback", "modelVersion" or "responseId" at its top level (a chat
// chunk has "choices", an error object only "error").
func isStreamEvent(typ string, data []byte) bool {
	if typ != "" || data == nil {
		return false
	}
	if claims, ok := scanClaim(data); ok {
		return claims
	}
	return decodeClaim(data)
}

// Key is the credential a request carries: its x-goog-api-key, else the
// token of an "Authorization: Bearer" header, which is how Vertex AI is
// called (an OAuth access token from Application Default Credentials); ""
// when there is neither.
func Key(h http.Header) string {
	if k := h.Get(KeyHeader); k != "" {
		return k
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// ErrorBody is Google's error body, {"error":{"code","message","status"}}:
// code is the HTTP status and status its canonical name (Status); the code
// argument is not part of the shape.
func ErrorBody(status int, code, message string) []byte {
	body, _ := json.Marshal(struct {
		Error googleError `json:"error"`
	}{googleError{Code: status, Message: message, Status: Status(status)}})
	return body
}

// googleError is the error object of Google's APIs.
type googleError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
}

// Status is the canonical status name Google's APIs give an HTTP status:
// INVALID_ARGUMENT (400), UNAUTHENTICATED (401), PERMISSION_DENIED (403),
// NOT_FOUND (404), RESOURCE_EXHAUSTED (429), UNAVAILABLE (503),
// DEADLINE_EXCEEDED (504), INTERNAL for any other 5xx, FAILED_PRECONDITION
// otherwise.
func Status(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	if status >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}
