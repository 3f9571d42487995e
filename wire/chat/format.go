package chat

import (
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/openai"
	"github.com/agentvcr/agentvcr/wire/internal/turn"
)

// endpoint is the path every chat-completions request is posted to, after
// the base URL (which ends in /v1 or a gateway's own prefix).
const endpoint = "/chat/completions"

// Format is the OpenAI chat-completions format: POST {base}/chat/completions
// with a Bearer key, Body, Merge, and agent.CheckMessages (the invariants are
// the neutral messages' own). It is the default format and the one every
// OpenAI-compatible gateway speaks.
var Format = &agent.Format{
	Name:           "chat",
	Title:          "chat completions",
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
	Turn:           turn.ByRole,
	Write:          Write,
	Response:       Response,
	IsStreamEvent:  func(string, []byte) bool { return false }, // chunks carry no type: the fallback
	ErrorEvent:     `data: {"error":{"message":"agentvcr fault: the gateway failed mid-stream","type":"server_error","param":null,"code":null}}` + "\n\n",
	ErrorBody:      openai.ErrorBody,
}
