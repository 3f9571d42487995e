package cassette

import (
	"strconv"
	"strings"
)

// IgnorePath removes the field path names from a decoded JSON value (as
// encoding/json decodes into any) and returns the value: path is keys and
// array indexes joined by dots, "*" matching any key or index
// ("messages.0.content", "messages.*.tool_call_id"). An array element it
// names is replaced by "(ignored)" rather than removed, so that the
// elements after it keep their places. A path that names nothing changes
// nothing.
func IgnorePath(v any, path string) any {
	return ignorePath(v, strings.Split(path, "."))
}

func ignorePath(v any, path []string) any {
	if len(path) == 0 {
		return v
	}
	key, rest := path[0], path[1:]
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if key != "*" && k != key {
				continue
			}
			if len(rest) == 0 {
				delete(x, k)
			} else {
				x[k] = ignorePath(sub, rest)
			}
		}
	case []any:
		for i := range x {
			if key != "*" && key != strconv.Itoa(i) {
				continue
			}
			if len(rest) == 0 {
				x[i] = "(ignored)"
			} else {
				x[i] = ignorePath(x[i], rest)
			}
		}
	}
	return v
}

// VolatilePaths are the request fields that differ from run to run of the
// same agent on the same conversation, which body matching must leave out
// to match at all (pydantic-ai #6993: a suite lost 435 cassette tests to
// such fields): the end user and caller fields (OpenAI's user,
// safety_identifier, metadata; Anthropic's metadata, whose user_id Claude
// Code fills with its session; client_metadata), cache keys agents set to
// their session or thread id (prompt_cache_key), and the tool-call ids an
// agent makes up or renames, in every format: chat's tool_calls[].id and
// tool_call_id, Anthropic's tool_use and tool_result ids, the Responses
// API's call_id and item ids, Gemini's functionCall and functionResponse
// ids. Timestamps travel in metadata.
var VolatilePaths = []string{
	"user", "safety_identifier", "metadata", "client_metadata", "prompt_cache_key",
	"messages.*.tool_calls.*.id", "messages.*.tool_call_id",
	"messages.*.content.*.id", "messages.*.content.*.tool_use_id",
	"input.*.call_id", "input.*.id",
	"contents.*.parts.*.functionCall.id", "contents.*.parts.*.functionResponse.id",
}
