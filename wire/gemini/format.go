package gemini

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

// The path of a request after the base URL, which is the API's root
// (GOOGLE_GEMINI_BASE_URL has no /v1beta): the model sits between
// modelsPrefix and the method.
const (
	modelsPrefix = "/v1beta/models/"
	streamMethod = ":streamGenerateContent"
	wholeMethod  = ":generateContent"
)

// KeyHeader is the header that carries the API key.
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
	Serves:         func(path string) bool { _, _, ok := cutPath(path); return ok },
	BasePath:       "",
	Header: func(h http.Header, key string) {
		if key != "" {
			h.Set(KeyHeader, key)
		}
	},
	Key:           func(h http.Header) string { return h.Get(KeyHeader) },
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

// PathModel reads the model a request path names and whether it asks for a
// stream (:streamGenerateContent) or one whole answer (:generateContent);
// "" and false for a path that is not Gemini's.
func PathModel(path string) (model string, stream bool) {
	model, stream, _ = cutPath(path)
	return model, stream
}

// cutPath splits ".../v1beta/models/{model}:{method}" (any prefix before
// /v1beta, as a case URL or a gateway adds): the model is one path segment,
// not empty, and the method is one of the two this format answers.
func cutPath(path string) (model string, stream, ok bool) {
	i := strings.LastIndex(path, modelsPrefix)
	if i < 0 {
		return "", false, false
	}
	rest := path[i+len(modelsPrefix):]
	switch {
	case strings.HasSuffix(rest, streamMethod):
		model, stream = strings.TrimSuffix(rest, streamMethod), true
	case strings.HasSuffix(rest, wholeMethod):
		model = strings.TrimSuffix(rest, wholeMethod)
	default:
		return "", false, false
	}
	if model == "" || strings.ContainsAny(model, "/:") {
		return "", false, false
	}
	return model, stream, true
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
