package agent

import (
	"bytes"
	"encoding/json"
	"strings"
)

// StreamError is an error a gateway sent inside a stream after its HTTP 200:
// an "event: error", a chunk whose "error" member is not null, or a chunk
// with "object":"error".
type StreamError struct {
	Message string // the error's message, or the raw data when it has none
	Type    string // its type, when given
	Code    string // its code as JSON text (502, "rate_limited"), when given
}

func (e *StreamError) Error() string {
	var b strings.Builder
	b.WriteString("stream error: ")
	b.WriteString(e.Message)
	var tags []string
	if e.Type != "" {
		tags = append(tags, "type "+e.Type)
	}
	if e.Code != "" {
		tags = append(tags, "code "+e.Code)
	}
	if len(tags) > 0 {
		b.WriteString(" (" + strings.Join(tags, ", ") + ")")
	}
	return b.String()
}

// ErrorBody is the shape of an error object: {"message","type","code"}.
type ErrorBody struct {
	Message json.RawMessage `json:"message"`
	Type    json.RawMessage `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// EventError turns the data of an "event: error" into a StreamError.
func EventError(data []byte) error {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(data, &env) != nil {
		return &StreamError{Message: rawMessage(data)}
	}
	if isPresent(env.Error) {
		return MemberError(env.Error, data)
	}
	return BodyError(ErrorBody{Message: env.Message, Type: env.Type, Code: env.Code}, data)
}

// MemberError reads an "error" member: an object or a bare string.
func MemberError(member, data []byte) error {
	var body ErrorBody
	if json.Unmarshal(member, &body) != nil {
		return &StreamError{Message: jsonText(member)}
	}
	return BodyError(body, data)
}

// BodyError is the StreamError of an error object already split into its
// members; data is the whole event, quoted when the object has no message.
func BodyError(body ErrorBody, data []byte) error {
	e := &StreamError{Message: jsonText(body.Message), Type: jsonText(body.Type), Code: jsonText(body.Code)}
	if e.Message == "" {
		e.Message = rawMessage(data)
	}
	return e
}

// jsonText is a JSON string's text, any other value's JSON, "" for null or absent.
func jsonText(raw json.RawMessage) string {
	if !isPresent(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

func isPresent(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// rawMessage is the data itself on one line, or a placeholder when empty.
func rawMessage(data []byte) string {
	s := strings.Join(strings.Fields(string(data)), " ")
	if s == "" {
		return "(no details)"
	}
	return s
}
