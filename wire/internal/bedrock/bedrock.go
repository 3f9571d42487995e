// Package bedrock holds what Amazon Bedrock's two routes share on the wire
// (InvokeModelWithResponseStream, the Messages route in wire/messages, and
// ConverseStream, wire/converse): the /model/{modelId}/... paths, the
// bearer key, the error body, and the event stream messages they answer
// in, events and exceptions.
package bedrock

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/wire/eventstream"
)

// ModelPrefix starts every path of the runtime API for one model.
const ModelPrefix = "/model/"

// CutPath splits a path (after any prefix) into the model id and whether
// it is the method stream (true) or whole (false); ok is false for any
// other path. The id is everything between /model/ and the method: an
// inference profile's ARN has slashes in it.
func CutPath(path, stream, whole string) (model string, isStream, ok bool) {
	i := strings.Index(path, ModelPrefix)
	if i < 0 {
		return "", false, false
	}
	rest := path[i+len(ModelPrefix):]
	switch {
	case strings.HasSuffix(rest, "/"+stream):
		model, isStream = strings.TrimSuffix(rest, "/"+stream), true
	case strings.HasSuffix(rest, "/"+whole):
		model = strings.TrimSuffix(rest, "/"+whole)
	default:
		return "", false, false
	}
	return model, isStream, model != ""
}

// APIPath is path from /model/ on, any prefix dropped: what a proxy joins
// to the runtime endpoint, whose root is the API's.
func APIPath(path string) string { return path[strings.Index(path, ModelPrefix):] }

// Header sends key, a Bedrock API key, as the bearer token (a SigV4
// signature is the other way in, which this client does not make).
func Header(h http.Header, key string) {
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
}

// BearerKey is the token of an "Authorization: Bearer ..." header; a SigV4
// signature is no key.
func BearerKey(h http.Header) string {
	token, ok := strings.CutPrefix(h.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return token
}

// ErrorBody is Bedrock's error body, {"message": ...}; the exception's
// name travels in the x-amzn-ErrorType header, which a body cannot carry.
func ErrorBody(_ int, _, message string) []byte {
	body, _ := json.Marshal(map[string]string{"message": message})
	return body
}

// Values of the headers every message carries.
const (
	jsonType = "application/json"
	// Chunk is the event type of an InvokeModelWithResponseStream message.
	Chunk = "chunk"
)

// EventMessage is one event message of type eventType carrying payload.
func EventMessage(eventType string, payload []byte) []byte {
	return appendMessage(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":event-type", eventType),
		eventstream.String(":content-type", jsonType),
		eventstream.String(":message-type", "event"),
	}, Payload: payload})
}

// ExceptionMessage is one exception message: its type names it
// (throttlingException, modelStreamErrorException, ...), its payload is
// {"message": message}.
func ExceptionMessage(exception, message string) []byte {
	payload, _ := json.Marshal(map[string]string{"message": message})
	return appendMessage(eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":exception-type", exception),
		eventstream.String(":content-type", jsonType),
		eventstream.String(":message-type", "exception"),
	}, Payload: payload})
}

func appendMessage(m eventstream.Message) []byte {
	out, err := eventstream.Append(nil, m)
	if err != nil {
		// Only a message over the 16 MiB bound of one fails, and no event
		// this project writes comes near it.
		panic(err)
	}
	return out
}

// Exception reads an exception message (:message-type exception, or
// error with an :error-code): its name and its message (the payload as it
// is when it has no "message"); ok is false for an event message.
func Exception(m eventstream.Message) (name, message string, ok bool) {
	switch m.Get(":message-type") {
	case "exception":
		name = m.Get(":exception-type")
	case "error":
		name = m.Get(":error-code")
	default:
		return "", "", false
	}
	var body struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(m.Payload, &body) != nil || body.Message == "" {
		body.Message = string(m.Payload)
	}
	return name, body.Message, true
}

// IsFramed reports whether a stream that starts with head is an event
// stream rather than text: a message starts with its total length, at most
// 16 MiB, so its first byte is 0, and text never starts with a NUL.
func IsFramed(head []byte) bool { return len(head) > 0 && head[0] == 0 }

// FirstEventType is the :event-type of the first message in head, "" when
// head does not hold a whole first message or it is no event: what tells
// the two routes' streams apart.
func FirstEventType(head []byte) string {
	m, err := eventstream.NewDecoder(bytes.NewReader(head)).Next()
	if err != nil || m.Get(":message-type") != "event" {
		return ""
	}
	return m.Get(":event-type")
}

// SSEFields reads the event name and the data (its lines joined by "\n")
// of one SSE event of a route's logical form, whatever its line ends.
func SSEFields(event []byte) (name string, data []byte) {
	var lines [][]byte
	for _, line := range bytes.Split(bytes.ReplaceAll(event, []byte("\r\n"), []byte("\n")), []byte("\n")) {
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			name = string(value)
		case "data":
			lines = append(lines, value)
		}
	}
	return name, bytes.Join(lines, []byte("\n"))
}

// SSEEvent is "event: name\ndata: data\n\n" (no event line when name is "").
func SSEEvent(name string, data []byte) []byte {
	var b []byte
	if name != "" {
		b = append(append(append(b, "event: "...), name...), '\n')
	}
	return append(append(append(b, "data: "...), data...), "\n\n"...)
}
