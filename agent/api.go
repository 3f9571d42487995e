package agent

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/tools"
)

// API is one wire format: everything the client and the loop need to speak
// it. Each format lives in its own files of this package and is one value of
// this type; the loop, the events, the tools and the truncation never look at
// which one is in use.
type API struct {
	Name       string // the -api flag's value: "chat", "messages"
	Path       string // joined to Client.BaseURL: "/chat/completions", "/v1/messages"
	KeyEnv     string // the environment variable that holds the key
	BaseURLEnv string // the environment variable that holds the base URL

	// Header sets the request headers for key (nothing when key is "").
	Header func(h http.Header, key string)
	// Body returns the exact request bytes for the neutral messages; the
	// same input always gives the same bytes.
	Body func(model string, msgs []Message, defs []tools.Definition) ([]byte, error)
	// Merge reads a raw stream in this format into one turn; on error it
	// returns the turn merged so far together with the error.
	Merge func(r io.Reader) (*Turn, error)
	// Check returns an error wrapping ErrInvalidMessages when msgs would make
	// a request in this format that a gateway rejects.
	Check func(msgs []Message) error
	// Detect reports whether head, the start of a raw stream, is in this
	// format (see DetectAPI); nil for the default format.
	Detect func(head []byte) bool
}

// ChatCompletions is the OpenAI chat-completions format: Bearer key,
// requestBody, MergeStream, CheckMessages.
var ChatCompletions = &API{
	Name:       "chat",
	Path:       "/chat/completions",
	KeyEnv:     "OPENAI_API_KEY",
	BaseURLEnv: "OPENAI_BASE_URL",
	Header: func(h http.Header, key string) {
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
	},
	Body:  requestBody,
	Merge: MergeStream,
	Check: CheckMessages,
}

// APIs lists every format, the default first.
func APIs() []*API {
	return []*API{ChatCompletions, Responses}
}

// APIByName returns the format whose Name is name.
func APIByName(name string) (*API, error) {
	var names []string
	for _, a := range APIs() {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return nil, fmt.Errorf("unknown api %q (want %s)", name, strings.Join(names, ", "))
}

// DetectAPI returns the format of a raw stream from its start: the first
// format whose Detect recognizes head, else ChatCompletions.
func DetectAPI(head []byte) *API {
	for _, a := range APIs() {
		if a.Detect != nil && a.Detect(head) {
			return a
		}
	}
	return ChatCompletions
}
