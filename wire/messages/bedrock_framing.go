package messages

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/agentvcr/agentvcr/wire/internal/bedrock"
)

// The Bedrock framing of a Messages stream (InvokeModelWithResponseStream):
// each Messages event is an event stream message of :event-type "chunk"
// whose JSON payload is {"bytes": base64 of the event's JSON}; an error is
// a message of :message-type "exception" whose :exception-type names it
// (throttlingException, modelStreamErrorException, internalServerException,
// serviceUnavailableException, validationException) and whose payload is
// {"message": ...}. The logical form is Anthropic's own SSE events; an
// exception reads back as Anthropic's error event, its error type the
// exception's name, so that it is a *agent.StreamError like any other.
var bedrockFraming = &agent.Framing{
	Name:        "AWS event stream",
	ContentType: eventstream.MediaType,
	Frame:       frameBedrock,
	Unframe:     func(r io.Reader) io.Reader { return bedrock.NewReader(r, chunkEvent) },
	Split:       eventstream.Split,
	IsFramed:    bedrock.IsFramed,
	// ConverseStream's first message is a messageStart event, not a chunk
	Claims: func(head []byte) bool {
		t := bedrock.FirstEventType(head)
		return t == "" || t == bedrock.Chunk
	},
}

// frameBedrock renders one Messages event as Bedrock sends it: an error
// event as an exception, any other event with data as a chunk; a comment
// or an event without data is nothing.
func frameBedrock(event []byte) []byte {
	name, data := bedrock.SSEFields(event)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if exception, message, ok := errorEvent(name, data); ok {
		return bedrock.ExceptionMessage(exception, message)
	}
	payload, _ := json.Marshal(map[string]string{"bytes": base64.StdEncoding.EncodeToString(data)})
	return bedrock.EventMessage(bedrock.Chunk, payload)
}

// errorEvent reads an Anthropic error event ("event: error", or data whose
// type is "error") as the Bedrock exception that carries it: the error's
// own type when it is already an exception's name, else the exception
// Bedrock answers that kind of failure with.
func errorEvent(name string, data []byte) (exception, message string, ok bool) {
	var e struct {
		Type  string `json:"type"`
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil || (name != "error" && e.Type != "error") {
		return "", "", false
	}
	return bedrockException(e.Error.Type), e.Error.Message, true
}

// bedrockException is the exception of an Anthropic error type.
func bedrockException(errorType string) string {
	switch {
	case strings.HasSuffix(errorType, "Exception"):
		return errorType
	case errorType == "rate_limit_error":
		return "throttlingException"
	case errorType == "overloaded_error":
		return "serviceUnavailableException"
	case errorType == "invalid_request_error":
		return "validationException"
	}
	return "internalServerException"
}

// ErrBadChunk is matched by the error of a Bedrock chunk whose payload is
// not {"bytes": base64 of a JSON object}.
var ErrBadChunk = errors.New("not a Bedrock chunk")

// chunkEvent reads one message as SSE text: a chunk as its event, an
// exception as an error event, a message of another event type (one
// Bedrock may add) as nothing.
func chunkEvent(m eventstream.Message, at int64) ([]byte, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("bedrock: message at byte %d: %s: %w", at, fmt.Sprintf(format, a...), ErrBadChunk)
	}
	if exception, message, ok := bedrock.Exception(m); ok {
		data, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": exception, "message": message}})
		return bedrock.SSEEvent("error", data), nil
	}
	if kind := m.Get(":message-type"); kind != "event" {
		return nil, bad(":message-type %q, neither event nor exception", kind)
	}
	if m.Get(":event-type") != bedrock.Chunk {
		return nil, nil
	}
	b64, ok := chunkBytes(m.Payload)
	if !ok {
		var chunk struct {
			Bytes *string `json:"bytes"`
		}
		if err := json.Unmarshal(m.Payload, &chunk); err != nil {
			return nil, bad("the payload is not JSON (%v)", err)
		}
		if chunk.Bytes == nil {
			return nil, bad("the payload has no \"bytes\"")
		}
		b64 = []byte(*chunk.Bytes)
	}
	data := make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
	n, err := base64.StdEncoding.Decode(data, b64)
	if err != nil {
		return nil, bad("\"bytes\" is not base64 (%v)", err)
	}
	data = data[:n]
	typ, ok := eventType(data)
	if !ok {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, bad("\"bytes\" is not a JSON event (%v)", err)
		}
		typ = head.Type
	}
	if bytes.ContainsAny(data, "\r\n") {
		// One SSE data line: an event's JSON may come indented.
		var line bytes.Buffer
		json.Compact(&line, data)
		data = line.Bytes()
	}
	return bedrock.SSEEvent(typ, data), nil
}

// chunkBytes reads the base64 of a chunk's payload as Bedrock writes it,
// {"bytes":"..."} or {"bytes":"...","p":"..."} (its padding, letters),
// without a JSON decoder: false for any other shape, which the decoder
// then reads. Base64 has no character JSON escapes.
func chunkBytes(payload []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(payload, []byte(`{"bytes":"`))
	if !ok {
		return nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return nil, false
	}
	b64, tail := rest[:end], rest[end:]
	if string(tail) == `"}` {
		return b64, true
	}
	pad, ok := bytes.CutPrefix(tail, []byte(`","p":"`))
	if !ok || !bytes.HasSuffix(pad, []byte(`"}`)) || bytes.ContainsAny(pad[:len(pad)-2], "\"\\") {
		return nil, false
	}
	return b64, true
}

// eventType reads the type of an event whose JSON starts with its "type"
// member, as Anthropic writes every event; false for any other.
func eventType(data []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(`{"type":"`))
	if !ok {
		return "", false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", false
	}
	return string(rest[:end]), true
}
