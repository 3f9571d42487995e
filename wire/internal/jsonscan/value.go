package jsonscan

import (
	"bytes"
	"encoding/json"
)

// Present reports whether a member was sent with a value other than null.
func Present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// Text is a JSON string's text, any other value's JSON, "" for null or absent.
func Text(raw json.RawMessage) string {
	if !Present(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}
