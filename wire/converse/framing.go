package converse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/agentvcr/agentvcr/wire/internal/bedrock"
)

// framing is ConverseStream's: each event of the logical form one event
// message whose :event-type is the event's type and whose payload is the
// union's member; an error event an exception message.
var framing = &agent.Framing{
	Name:        "AWS event stream",
	ContentType: eventstream.MediaType,
	Frame:       frame,
	Unframe:     func(r io.Reader) io.Reader { return bedrock.NewReader(r, messageEvent) },
	Split:       eventstream.Split,
	IsFramed:    bedrock.IsFramed,
	// InvokeModelWithResponseStream's messages are chunks
	Claims: func(head []byte) bool { return slices.Contains(eventTypes, bedrock.FirstEventType(head)) },
}

// frame renders one event of the logical form as its message: an error
// event as an exception, an event whose data is {"<type>": payload} as an
// event of that type; anything else (a comment) is nothing.
func frame(event []byte) []byte {
	name, data := bedrock.SSEFields(event)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if name == "error" {
		var e struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		json.Unmarshal(data, &e)
		if e.Type == "" {
			e.Type = "internalServerException"
		}
		return bedrock.ExceptionMessage(e.Type, e.Message)
	}
	typ, payload, ok := member(data)
	if !ok {
		return nil
	}
	return bedrock.EventMessage(typ, payload)
}

// member is the one member of a union object: its name and its value.
func member(data []byte) (string, []byte, bool) {
	var union map[string]json.RawMessage
	if json.Unmarshal(data, &union) != nil || len(union) != 1 {
		return "", nil, false
	}
	for k, v := range union {
		return k, v, true
	}
	return "", nil, false
}

// ErrBadEvent is matched by the error of a message whose payload is not a
// JSON object.
var ErrBadEvent = errors.New("not a ConverseStream event")

// messageEvent reads one message: an event as {"<type>": payload}, an exception
// as an error event.
func messageEvent(m eventstream.Message, at int64) ([]byte, error) {
	if name, message, ok := bedrock.Exception(m); ok {
		data, _ := json.Marshal(map[string]string{"type": name, "message": message})
		return bedrock.SSEEvent("error", data), nil
	}
	typ := m.Get(":event-type")
	if kind := m.Get(":message-type"); kind != "event" || typ == "" {
		return nil, fmt.Errorf("converse: message at byte %d: :message-type %q, :event-type %q: %w", at, kind, typ, ErrBadEvent)
	}
	var payload bytes.Buffer
	if err := json.Compact(&payload, m.Payload); err != nil || payload.Len() == 0 || payload.Bytes()[0] != '{' {
		return nil, fmt.Errorf("converse: message at byte %d: %s: the payload is not a JSON object: %w", at, typ, ErrBadEvent)
	}
	name, _ := json.Marshal(typ)
	data := append(append(append(append([]byte("{"), name...), ':'), payload.Bytes()...), '}')
	return bedrock.SSEEvent(typ, data), nil
}
