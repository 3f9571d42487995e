package agent

import (
	"bytes"
	"encoding/json"
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
	return []*API{ChatCompletions, AnthropicMessages, Responses}
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

// DetectAPI names the format of a raw stream from its first event: an
// "event:" line or a data object's "type" that belongs to Anthropic Messages
// (message_start, content_block_*, ping, message_delta, message_stop) or to
// OpenAI Responses ("response.*"); anything else, a chat-completions chunk
// included, is ChatCompletions. "error" events and comments are passed over.
// head is the start of the stream (the first few KiB are plenty).
func DetectAPI(head []byte) *API {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexAny(head, "\r\n"); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		var typ string
		switch string(field) {
		case "event":
			typ = string(value)
		case "data":
			var probe struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(value, &probe) != nil {
				continue
			}
			if probe.Type == "" {
				return ChatCompletions
			}
			typ = probe.Type
		default:
			continue
		}
		switch {
		case typ == "error":
			continue
		case strings.HasPrefix(typ, "response."):
			return Responses
		case strings.HasPrefix(typ, "message_"), strings.HasPrefix(typ, "content_block_"), typ == "ping":
			return AnthropicMessages
		default:
			return ChatCompletions
		}
	}
	return ChatCompletions
}
