package quirk

import "unicode/utf8"

// key reads a member's key. A plain key that is one of knownKeys is that
// string, not a new copy of its bytes (most keys of every event are).
func (r *orderedReader) key() string {
	end := r.pos + 1
	for end < len(r.data) && keyPlain(r.data[end]) {
		end++
	}
	if end < len(r.data) && r.data[end] == '"' {
		if k, ok := knownKeys[string(r.data[r.pos+1:end])]; ok {
			r.pos = end + 1
			return k
		}
	}
	return r.str()
}

// keyPlain reports whether c may stand in a key as itself: printable
// ASCII other than the quote and the backslash.
func keyPlain(c byte) bool { return c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' }

// knownKeys are the members of the formats' stream events, by themselves.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"type", "index", "id", "delta", "model", "object", "created", "choices", "sequence_number",
		"finish_reason", "logprobs", "arguments", "output_index", "content", "tool_calls", "name",
		"function", "status", "text", "role", "item_id", "usage", "output_tokens", "partial_json", "item",
		"response", "output", "created_at", "call_id", "stop_sequence", "stop_reason", "input_tokens",
		"content_index", "content_block", "message", "annotations", "modelVersion", "candidates",
		"responseId", "input", "parts", "system_fingerprint", "total_tokens", "part", "usageMetadata",
		"totalTokenCount", "promptTokenCount", "finishReason", "reasoning_tokens",
		"output_tokens_details", "input_tokens_details", "cached_tokens", "candidatesTokenCount",
		"functionCall", "args", "error", "summary",
	} {
		m[k] = k
	}
	return m
}()
