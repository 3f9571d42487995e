package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// ErrNotARequest marks a request body conform cannot read in the case's wire
// format.
var ErrNotARequest = errors.New("not a request conform can read")

// A Request is what conform reads of one request an agent sent, whatever its
// wire format: the tools it offers and the conversation it carries. The
// checks work on this shape only, so another wire format plugs in with a
// reader of its own.
type Request struct {
	Model string
	// Streams is set when the request asks for a streamed reply.
	Streams  bool
	Tools    []Tool
	Messages []Message
	// LoneReasoning are the ids of reasoning items that no assistant item
	// follows (Responses: the API answers 400).
	LoneReasoning []string
	// Body is the request's body as sent.
	Body []byte
}

// A Tool is one tool an agent offers: its name and its parameters' JSON
// Schema as sent.
type Tool struct {
	Name   string
	Schema json.RawMessage
}

// A Message is one entry of the conversation.
type Message struct {
	Role string // system, user, assistant or tool
	Text string
	// Calls are an assistant message's tool calls, in the order sent.
	Calls []Call
	// CallID is the call a tool message answers.
	CallID string
	// Reasoning is an assistant message's reasoning_content as sent.
	Reasoning string
	// TextAfterCalls: the assistant message has text after a call (Messages:
	// a text block after a tool_use block, which the API answers with 400).
	TextAfterCalls bool
	// Signatures are the signatures of an assistant message's thinking
	// blocks, in order (Messages).
	Signatures []string
	// ThinkingFirst: the assistant message starts with a thinking block
	// (Messages: with thinking on, the API answers 400 otherwise).
	ThinkingFirst bool
	// ReasoningIDs are the ids of the reasoning items sent right before the
	// assistant message's items (Responses).
	ReasoningIDs []string
	// TextByReference: the assistant message's text was sent as an
	// item_reference to a stored response (Responses), so there is no text
	// to compare.
	TextByReference bool
}

// A Call is one tool call: Arguments is the JSON text as sent, Extra its
// extra_content (Gemini's thought signature) as sent.
type Call struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Extra     json.RawMessage `json:"extra_content,omitempty"`
	// ItemID is a Responses function_call item's own id as sent ("" when
	// the agent sends only the call_id).
	ItemID string `json:"item_id,omitempty"`
}

// assistants counts the assistant messages: the turn a request asks for.
func (r Request) assistants() int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// A Format is one wire format as conform speaks it: the wire format itself
// (its name, paths, environment variables and the agent core's merger, from
// package wire), how conform reads one of its requests, how the probe builds
// its turns in it and the cases it runs.
type Format struct {
	*agent.Format
	// Read reads one request body.
	Read func(body []byte) (Request, error)
	// cases is the format's catalog.
	cases func() []Case
	// cut is how many events of a stream a stall or a reset lets through:
	// up to inside its second call (cutPoint when nil).
	cut func([]sse.Event) (int, error)
	// dir is the format's folder in the catalog as data ("" for the root).
	dir string
	// renumber replaces, in a decoded request, each call id by the call's
	// position in the conversation and each answer's by the position of the
	// call it answers (recorded mode compares requests so).
	renumber func(top map[string]any)
	// side answers a request that is no turn of the case (Gemini CLI's
	// routing classifier); ok false for a turn. nil when the format has
	// none.
	side func(f Format, path string, body []byte) (serve.Reply, bool)
}

// Cases returns the format's catalog in report order (chat: Cases;
// messages: MessagesCases; responses: ResponsesCases; gemini: GeminiCases).
func (f Format) Cases() []Case { return f.cases() }

// chatFormat is OpenAI's chat-completions format.
var chatFormat = Format{Format: chat.Format, Read: readChat, cases: Cases,
	renumber: renumberChat}

// ErrUnknownFormat is returned by FormatByName for a name it does not know.
var ErrUnknownFormat = errors.New("unknown wire format")

// Formats returns every format conform speaks, in wire.All's order (a test
// keeps the two lists in step).
func Formats() []Format {
	return []Format{chatFormat, messagesFormat, responsesFormat, geminiFormat, bedrockFormat, vertexFormat, converseFormat}
}

// FormatByName returns the format named chat, messages, responses or
// gemini.
func FormatByName(name string) (Format, error) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%w %q: want %s", ErrUnknownFormat, name, strings.Join(wire.Names(), ", "))
}

// chatWire is the part of a chat-completions request conform reads.
type chatWire struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		ReasoningContent string          `json:"reasoning_content"`
		ToolCallID       string          `json:"tool_call_id"`
		ToolCalls        []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
			ExtraContent json.RawMessage `json:"extra_content"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

func readChat(body []byte) (Request, error) {
	var w chatWire
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrNotARequest, err)
	}
	if w.Messages == nil {
		return Request{}, fmt.Errorf("%w: no \"messages\" array", ErrNotARequest)
	}
	r := Request{Model: w.Model, Streams: w.Stream, Body: body}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.Function.Name, Schema: t.Function.Parameters})
	}
	for _, m := range w.Messages {
		msg := Message{Role: m.Role, Text: contentText(m.Content), CallID: m.ToolCallID, Reasoning: m.ReasoningContent}
		for _, c := range m.ToolCalls {
			msg.Calls = append(msg.Calls, Call{ID: c.ID, Name: c.Function.Name, Arguments: argumentsText(c.Function.Arguments), Extra: c.ExtraContent})
		}
		r.Messages = append(r.Messages, msg)
	}
	return r, nil
}

// contentText is a message's text: a string, or the text parts of an array.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// argumentsText is a call's arguments as JSON text: the string as sent, or
// the JSON of whatever else an agent put there.
func argumentsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
