package chat

import (
	"encoding/json"
	"strings"

	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
	"github.com/agentvcr/agentvcr/wire/internal/textbuf"
)

// What a delta may carry besides plain text, and where it goes:
//
//   - delta.content as an array of typed parts (or one part as an object):
//     "text" parts (and parts with a text member and no type) are answer
//     text; parts whose type names thinking or reasoning (Mistral's
//     {"type":"thinking","thinking":[{"type":"text",..}]}, Databricks'
//     {"type":"reasoning","summary":[{"type":"summary_text",..}]}) are
//     reasoning; any other part (an image, an unknown type, no text at all)
//     is skipped. A string element is text.
//   - delta.reasoning_content (DeepSeek, vLLM, Qwen, z.ai), delta.reasoning
//     (OpenRouter, Ollama) and delta.reasoning_details (OpenRouter): the first
//     of the three that has text in a delta is reasoning; OpenRouter sends the
//     same text in two of them, so the others are not added again. Each may
//     be a string, an object with text, thinking, summary or content members,
//     or an array of those; encrypted and redacted entries carry no text.
//   - delta.refusal: the model's refusal is what it says to the user, so it
//     is answer text.
//
// Nothing here is ever an error: a member of a shape not listed adds nothing.

// appendContent adds delta.content to the answer's text and returns the
// reasoning buffer grown by any reasoning parts it holds.
func appendContent(text *textbuf.Buffer, reasoning []byte, raw rawText) []byte {
	if len(raw) == 0 {
		return reasoning
	}
	if raw[0] == '"' {
		// unquoted, a string is never longer than its literal
		text.Tail = jsonscan.AppendUnquoted(text.Room(len(raw)), raw)
		return reasoning
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return reasoning // validated by the decoder already
	}
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, item := range items {
		switch p := item.(type) {
		case string:
			text.Tail = append(text.Room(len(p)), p...)
		case map[string]any:
			typ, _ := p["type"].(string)
			switch {
			case isReasoningType(typ):
				reasoning = appendReasoningValue(reasoning, p)
			case typ == "" || typ == "text" || typ == "output_text":
				if s, ok := p["text"].(string); ok {
					text.Tail = append(text.Room(len(s)), s...)
				}
			}
		}
	}
	return reasoning
}

// isReasoningType reports a part type that holds reasoning: thinking,
// reasoning, reasoning.text, reasoning_text, redacted_thinking...
func isReasoningType(typ string) bool {
	return strings.Contains(typ, "thinking") || strings.Contains(typ, "reasoning")
}

// appendReasoningField adds the text of one reasoning member (a string, or
// any JSON value read by appendReasoningValue) and reports whether it had any.
func appendReasoningField(dst []byte, raw rawValue) ([]byte, bool) {
	n := len(dst)
	switch {
	case len(raw) == 0:
		return dst, false
	case raw[0] == '"':
		dst = jsonscan.AppendUnquoted(dst, raw)
	default:
		var v any
		if json.Unmarshal(raw, &v) == nil {
			dst = appendReasoningValue(dst, v)
		}
	}
	return dst, len(dst) > n
}

// reasoningMembers are the members of a reasoning object that hold its text,
// in the order they are read.
var reasoningMembers = []string{"text", "thinking", "summary", "content"}

// appendReasoningValue appends the readable text of a decoded reasoning
// value: strings as they are, arrays element by element, objects through
// their text-bearing members; encrypted or redacted entries add nothing.
func appendReasoningValue(dst []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return append(dst, x...)
	case []any:
		for _, e := range x {
			dst = appendReasoningValue(dst, e)
		}
	case map[string]any:
		if typ, _ := x["type"].(string); strings.Contains(typ, "encrypted") || strings.Contains(typ, "redacted") {
			return dst
		}
		for _, k := range reasoningMembers {
			if m, ok := x[k]; ok {
				dst = appendReasoningValue(dst, m)
			}
		}
	}
	return dst
}
