package conform

import (
	"bytes"
	"encoding/json"
)

// conversationKeys are the members a request's conversation is under, in
// each format: chat completions' and Messages' messages, the Responses
// API's input, Gemini's contents.
var conversationKeys = []string{"messages", "input", "contents"}

// conversationBlocks is a request body as the HTML report shows it: its
// conversation one message (item, content) a block, each indented JSON,
// so that a reader compares messages, not one long line of text. A body
// that is not JSON, or holds no conversation array, is one block, as sent
// (indented when it is JSON).
func conversationBlocks(body []byte) []string {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err == nil {
		for _, k := range conversationKeys {
			var items []json.RawMessage
			if json.Unmarshal(top[k], &items) != nil || len(items) == 0 {
				continue
			}
			blocks := make([]string, len(items))
			for i, item := range items {
				blocks[i] = indented(item)
			}
			return blocks
		}
	}
	return []string{indented(body)}
}

// indented is raw JSON indented by two spaces, or raw as it is when it is
// no JSON.
func indented(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
