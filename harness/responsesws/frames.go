package responsesws

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// Frames are the text frames a Responses stream is sent as on a
// WebSocket: each event's data, one frame per event, in order (an event
// with no data, a comment, and a "[DONE]" send none). The objects are the
// SSE data lines' own, sequence_number and all.
func Frames(stream []byte) [][]byte {
	var frames [][]byte
	for _, e := range sse.Parse(stream) {
		if !e.HasData || e.Data == "[DONE]" {
			continue
		}
		frames = append(frames, []byte(e.Data))
	}
	return frames
}

// Terminal reports whether a frame ends its response: response.completed,
// response.failed or response.incomplete. (An error frame ends a request
// that was refused; one in the middle of a stream, as an SSE error event is
// sent, does not end it by itself.)
func Terminal(frame []byte) bool {
	var head struct {
		Type string `json:"type"`
	}
	json.Unmarshal(frame, &head)
	switch head.Type {
	case "response.completed", "response.failed", "response.incomplete":
		return true
	}
	return false
}

// Event is the SSE event a text frame stands for: "event: TYPE" (the
// frame's "type") and "data: FRAME", as the HTTP stream sends it. A frame
// with no type has no event line.
func Event(frame []byte) []byte {
	var head struct {
		Type string `json:"type"`
	}
	json.Unmarshal(frame, &head)
	var b bytes.Buffer
	if head.Type != "" && !strings.ContainsAny(head.Type, "\r\n") {
		b.WriteString("event: " + head.Type + "\n")
	}
	for _, line := range bytes.Split(frame, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// ErrorFrame is the in-band error frame of a request the server refused:
// {"type":"error","status":N,"error":{...},"headers":{...}}, the error
// object taken from an HTTP error body ({"error":{...}}) or, when the body
// has none, made of its text; headers are the reply's own that a client
// acts on (Retry-After and the rate-limit ones), lower-cased.
func ErrorFrame(status int, header http.Header, body []byte) []byte {
	var wrapped struct {
		Error json.RawMessage `json:"error"`
	}
	errObj := json.RawMessage(nil)
	if json.Unmarshal(body, &wrapped) == nil && len(wrapped.Error) > 0 && wrapped.Error[0] == '{' {
		errObj = wrapped.Error
	} else {
		msg, _ := json.Marshal(strings.TrimSpace(string(body)))
		errObj = fmt.Appendf(nil, `{"type":"server_error","code":null,"message":%s}`, msg)
	}
	frame := fmt.Appendf(nil, `{"type":"error","status":%d,"error":%s`, status, errObj)
	if h := kept(header); len(h) > 0 {
		hb, _ := json.Marshal(h)
		frame = append(append(frame, `,"headers":`...), hb...)
	}
	return append(frame, '}')
}

// kept are the headers of a refusal a client acts on.
func kept(header http.Header) map[string]string {
	h := map[string]string{}
	for k, v := range header {
		lk := strings.ToLower(k)
		if len(v) > 0 && (lk == "retry-after" || lk == "retry-after-ms" || strings.HasPrefix(lk, "x-ratelimit-")) {
			h[lk] = v[0]
		}
	}
	return h
}

// PreviousNotFound is the error frame the API sends for a
// previous_response_id it does not hold: status 400, code
// previous_response_not_found (the code Codex looks for before it sends
// its whole input again).
func PreviousNotFound(id string) []byte {
	msg, _ := json.Marshal(fmt.Sprintf("Previous response with id '%s' not found.", id))
	return fmt.Appendf(nil, `{"type":"error","status":400,"error":{"type":"invalid_request_error","code":"previous_response_not_found","message":%s,"param":"previous_response_id"}}`, msg)
}

// FrameError is what a client reads out of an error frame: its status (0
// when it has none) and its error object's code and message.
type FrameError struct {
	Status  int
	Code    string
	Message string
	Headers map[string]string
	// Error is the error object as sent.
	Error json.RawMessage
}

// ReadError reads an error frame; ok is false for any other frame.
func ReadError(frame []byte) (e FrameError, ok bool) {
	var f struct {
		Type       string            `json:"type"`
		Status     int               `json:"status"`
		StatusCode int               `json:"status_code"`
		Error      json.RawMessage   `json:"error"`
		Headers    map[string]string `json:"headers"`
	}
	if json.Unmarshal(frame, &f) != nil || f.Type != "error" {
		return e, false
	}
	var inner struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(f.Error, &inner)
	e = FrameError{Status: f.Status, Code: inner.Code, Message: inner.Message, Headers: f.Headers, Error: f.Error}
	if e.Status == 0 {
		e.Status = f.StatusCode
	}
	return e, true
}
