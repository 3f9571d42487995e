package agent

import (
	"io"
	"net/http"

	"github.com/agentvcr/agentvcr/tools"
)

// Format is the whole contract of one wire format: everything the client,
// the loop, a server and the harness need to speak it. Each format is one
// package under wire/ that builds one value of this type; package wire lists
// them. The loop, the events, the tools and the truncation never look at
// which format is in use, and no code outside a format's package names its
// paths, its environment variables or its event types.
type Format struct {
	Name       string // the -api flag's value: "chat", "messages", "responses", "gemini"
	Title      string // how messages name it: "chat completions", "Anthropic Messages"
	KeyEnv     string // the environment variable that holds the key
	BaseURLEnv string // the environment variable that holds the base URL
	// ExampleBaseURL is the provider's own base URL, for messages that show
	// one ("https://api.openai.com/v1").
	ExampleBaseURL string

	// Path returns the path a request for model is posted to, joined to
	// Client.BaseURL (a format may put the model in it).
	Path func(model string) string
	// Serves reports whether a server should answer a POST to path in this
	// format: the path ends in the format's endpoint, whatever comes before
	// it ("/v1", "/s/<case>/v1", a gateway's own prefix).
	Serves func(path string) bool
	// BasePath is what a base URL of this format adds to a server's root:
	// "/v1" for a format whose base URL variable ends in /v1, "" for one
	// whose base URL is the server's root. A server answers and
	// matches recordings on BasePath + Path(model), whatever prefix they
	// were recorded under.
	BasePath string
	// Header sets the request headers for key (nothing when key is "").
	Header func(h http.Header, key string)
	// Key returns the key a request carries in its headers ("" when none):
	// what Header set.
	Key func(h http.Header) string
	// Body returns the exact request bytes for the neutral messages; the
	// same input always gives the same bytes.
	Body func(model string, msgs []Message, defs []tools.Definition) ([]byte, error)
	// Merge reads a raw stream in this format into one turn; on error it
	// returns the turn merged so far together with the error.
	Merge func(r io.Reader) (*Turn, error)
	// Check returns an error wrapping ErrInvalidMessages when msgs would make
	// a request in this format that a gateway rejects.
	Check func(msgs []Message) error
	// Decode reads a request body the way a server sees it (the model, the
	// stream flag, the conversation as neutral messages) and checks the
	// format's invariants: the error wraps ErrInvalidMessages when they are
	// broken.
	Decode func(body []byte) (DecodedRequest, error)
	// Turn returns the model named in a request body and the turn it asks
	// for: 1 plus the assistant turns it carries. It never fails: a body it
	// cannot read is turn 1 of no model.
	Turn func(body []byte) (model string, turn int)
	// Write renders t as a clean stream of this format: the events a server
	// sends, each ending in a blank line, text and arguments in small pieces.
	// Ids come from the conversation's name and the turn's index (0-based),
	// so the same input always gives the same bytes; a call's own ID is kept
	// when it has one. FinishReason "" is the format's own for a turn with or
	// without calls. Merge(Write(...)) gives back t's text and calls.
	Write func(model, conversation string, index int, t *Turn) []string
	// Response renders t as the JSON body of a non-streamed answer of this
	// format (a request with "stream": false), with the ids and finish
	// reason Write gives the same turn: what a server sends a client that
	// falls back from streaming.
	Response func(model, conversation string, index int, t *Turn) []byte
	// IsStreamEvent reports whether the first event of a stream belongs to
	// this format: typ is its "event:" field or its data object's "type"
	// member, data is the data object (nil for an "event:" line). The
	// default format answers false and is what is left; package wire's
	// Detect asks every other format.
	IsStreamEvent func(typ string, data []byte) bool
	// ErrorEvent is one SSE event that carries an error in this format's
	// shape after a 200 (an overloaded gateway), ending in a blank line.
	ErrorEvent string
	// ErrorBody is the JSON body of an HTTP error answer with status in this
	// format's shape, for an error code ("rate_limit_exceeded") and message.
	ErrorBody func(status int, code, message string) []byte

	// The members below are for a format whose path carries the model and
	// the stream flag (a path that names the model and the method);
	// the other formats leave them zero, and their path and query do not
	// change. See RequestOf, ServedPath.

	// Query is added to the query of every request URL ("alt=sse"); "" for
	// none.
	Query string
	// PathModel reads a request path's model and whether it asks for a
	// stream; nil when the body says both (Decode, Turn).
	PathModel func(path string) (model string, stream bool)
	// WholePath is the path of Path's non-streaming twin, the same request
	// answered with one JSON object (Gemini's :generateContent); nil when
	// the format has none.
	WholePath func(model string) string
	// APIPath, for a format whose paths begin with their own API version
	// (Gemini's /v1beta/models/..., Vertex AI's /v1/projects/...) or have
	// none (Bedrock's /model/...), returns
	// the part of a request path that follows the provider's root URL, any
	// prefix before the version dropped, and false for a path the format
	// does not serve: what a proxy joins to its upstream. nil for the
	// formats whose base URL ends in the version (.../v1).
	APIPath func(path string) (string, bool)

	// Framing is how the format's streams travel when not as SSE text
	// (Bedrock's event stream); nil for SSE. Write, ErrorEvent and the
	// quirks keep to the logical form either way; Merge reads both.
	Framing *Framing
	// Carries, for a route of another format (its API on another
	// provider's addressing or framing: Anthropic's on Bedrock and Vertex
	// AI), is the format whose events its streams carry, so a stream of it
	// in the logical form is detected as that format's; nil for a format of
	// its own.
	Carries *Format
}
