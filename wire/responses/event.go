package responses

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// respEvent is one event of an OpenAI Responses stream, every type in one
// struct: which members are set depends on Type. Unknown members are ignored.
type respEvent struct {
	Type           string          `json:"type"`
	SequenceNumber *int64          `json:"sequence_number"`
	OutputIndex    *int            `json:"output_index"`
	ContentIndex   *int            `json:"content_index"`
	SummaryIndex   *int            `json:"summary_index"` // reasoning_summary_*
	ItemID         string          `json:"item_id"`
	Delta          json.RawMessage `json:"delta"`     // *.delta: a string (an object is taken as the whole arguments)
	Arguments      json.RawMessage `json:"arguments"` // function_call_arguments.done
	Input          json.RawMessage `json:"input"`     // custom_tool_call_input.done
	Text           *string         `json:"text"`      // output_text.done
	Name           string          `json:"name"`      // function_call_arguments.done, from some servers
	Item           *respItemJSON   `json:"item"`      // output_item.added, output_item.done
	Part           *respPartJSON   `json:"part"`      // content_part.added, content_part.done
	Response       *respResponse   `json:"response"`  // response.created, .in_progress, .completed, .failed, .incomplete

	// The members of an "error" event: {"code","message","param"}, or
	// {"error":{...}} from gateways that wrap it.
	Code    json.RawMessage `json:"code"`
	Message json.RawMessage `json:"message"`
	Error   json.RawMessage `json:"error"`
}

// respItemJSON is an output item: a message, a function call, reasoning, or a
// built-in tool's item (web_search_call, shell_call, …).
type respItemJSON struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"` // custom_tool_call: the freeform input
	Content   []respPartJSON  `json:"content"`
	Summary   []respPartJSON  `json:"summary"` // reasoning
}

// respPartJSON is a content part of a message item.
type respPartJSON struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// respResponse is the response object the lifecycle events carry.
type respResponse struct {
	ID                string          `json:"id"`
	Status            string          `json:"status"`
	Output            []respItemJSON  `json:"output"`
	Usage             *respUsage      `json:"usage"`
	Error             json.RawMessage `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
}

// respUsage is the Responses API's token count.
type respUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// The item kinds the merger tells apart. Every item type other than message,
// function_call, custom_tool_call and reasoning (web_search_call, shell_call,
// apply_patch_call, …) is kindOther: a built-in tool the server runs, never a
// call for the agent.
type respKind uint8

const (
	kindOther respKind = iota
	kindMessage
	kindFunctionCall
	kindReasoning
	kindCustomCall // a custom tool's call: freeform input, no JSON arguments
)

// isCall reports whether items of kind k are the agent's calls.
func isCall(k respKind) bool { return k == kindFunctionCall || k == kindCustomCall }

func kindOf(itemType string) respKind {
	switch itemType {
	case "message":
		return kindMessage
	case "function_call":
		return kindFunctionCall
	case "reasoning":
		return kindReasoning
	case "custom_tool_call":
		return kindCustomCall
	}
	return kindOther
}

// kindOfEvent is the kind of item a content event belongs to, and whether the
// event is one of them.
func kindOfEvent(typ string) (respKind, bool) {
	switch typ {
	case "response.output_text.delta", "response.output_text.done",
		"response.content_part.added", "response.content_part.done":
		return kindMessage, true
	case "response.function_call_arguments.delta", "response.function_call_arguments.done":
		return kindFunctionCall, true
	case "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done":
		return kindCustomCall, true
	case "response.reasoning_text.delta", "response.reasoning_text.done",
		"response.reasoning_summary_text.delta", "response.reasoning_summary_text.done",
		"response.reasoning_summary_part.added", "response.reasoning_summary_part.done":
		return kindReasoning, true
	}
	return kindOther, false
}

// appendDeltaText appends the text of a delta or of done arguments to dst
// and returns the extended slice, as append does: a JSON string's value
// (never nil, "" included); any other JSON value (an object some gateways
// send) compacted; nil, whatever dst, for null or absent.
func appendDeltaText(dst []byte, raw json.RawMessage) (text []byte, isString bool) {
	raw = bytes.TrimSpace(raw)
	if !jsonscan.Present(raw) {
		return nil, false
	}
	if raw[0] == '"' {
		if dst == nil {
			dst = []byte{} // a string's text is never nil, "" included
		}
		if utf8.Valid(raw) {
			// A literal the decoder (or the fast path's scanner) validated:
			// unquoted as encoding/json would, without its second pass.
			return jsonscan.AppendUnquoted(slices.Grow(dst, len(raw)-2), raw), true
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return append(dst, s...), true
		}
		return nil, false
	}
	b := bytes.NewBuffer(dst)
	if json.Compact(b, raw) != nil {
		return nil, false
	}
	return b.Bytes(), false
}

// text is appendDeltaText decoding into the merger's scratch buffer, for a text
// that is copied elsewhere before the next call: no allocation of its own.
func (m *respMerger) text(raw json.RawMessage) (text []byte, isString bool) {
	text, isString = appendDeltaText(m.scratch[:0], raw)
	if cap(text) > cap(m.scratch) {
		m.scratch = text[:0]
	}
	return text, isString
}

// itemType returns an item's type, without allocating for the types the
// merger tells apart.
func itemType(typ []byte) string {
	switch string(typ) {
	case "function_call":
		return "function_call"
	case "message":
		return "message"
	case "reasoning":
		return "reasoning"
	case "custom_tool_call":
		return "custom_tool_call"
	}
	return string(typ)
}

// name returns a tool's name as a string, allocated once per name: the
// calls of a stream share a few names.
func (m *respMerger) name(b []byte) string {
	if n, ok := m.names[string(b)]; ok {
		return n
	}
	if m.names == nil {
		m.names = map[string]string{}
	}
	n := string(b)
	if len(m.names) < 64 {
		m.names[n] = n
	}
	return n
}
