package responses

import (
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
)

// endpoint is the path of every Responses request after the base URL (which
// ends in /v1, as for chat completions).
const endpoint = "/responses"

// Format is the OpenAI Responses format: POST {base}/responses with a
// Bearer key, Body, Merge, and the same invariants as chat completions
// (every function_call answered by exactly one function_call_output with
// its call_id, right after it), which Decode checks on the neutral messages.
var Format = &agent.Format{
	Name:           "responses",
	Title:          "OpenAI Responses",
	KeyEnv:         "OPENAI_API_KEY",
	BaseURLEnv:     "OPENAI_BASE_URL",
	ExampleBaseURL: "https://api.openai.com/v1",
	Path:           func(string) string { return endpoint },
	Serves:         func(path string) bool { return strings.HasSuffix(path, endpoint) },
	BasePath:       "/v1",
	Header:         openai.BearerHeader,
	Key:            openai.BearerKey,
	Body:           Body,
	Merge:          Merge,
	Check:          agent.CheckMessages,
	Decode:         Decode,
	Turn:           Turn,
	Write:          Write,
	Response:       Response,
	IsStreamEvent:  func(typ string, _ []byte) bool { return strings.HasPrefix(typ, "response.") },
	ErrorEvent:     "event: error\n" + `data: {"type":"error","code":"server_error","message":"agentvcr fault: the gateway failed mid-stream","param":null}` + "\n\n",
	ErrorBody:      openai.ErrorBody,
}
