package sse

import (
	"bytes"
	"encoding/json"
)

// isErrorObject reports whether an SSE line that is no field is a whole
// JSON object with a member named exactly "error". Such a line is an error
// event, in every format: Google's servers end a cancelled
// streamGenerateContent with one, unframed, after the data events
// ({"error":{"code":499,"message":…,"status":"CANCELLED"}}), and a gateway
// that forwards its upstream's error body into a stream it already started
// does the same. Read as the SSE standard says (a field named `{"error"`,
// ignored), the stream would end as if the answer were complete. Any other
// unframed line is still ignored: only a line that cannot be anything but
// an error report is read as one.
func isErrorObject(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' || !json.Valid(line) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // the '{'
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "error" {
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}
