package wire

import (
	"bytes"

	"github.com/agentvcr/agentvcr/agent"
)

// Detect names the format of a raw stream: a framed one (a Bedrock event
// stream) by its framing, any other from its first event that says
// anything: an "event:" line, or a data object (with its "type" member, ""
// when it has none). Each format but the default is asked
// (agent.Format.IsStreamEvent); when none claims the event, the stream is the
// default's (chat completions: its chunks carry no type). "error" events,
// comments and data that is not JSON are passed over. head is the start of
// the stream (the first few KiB are plenty).
func Detect(head []byte) *agent.Format {
	for _, f := range All() {
		if f.Framing != nil && f.Framing.IsFramed(head) && (f.Framing.Claims == nil || f.Framing.Claims(head)) {
			return f
		}
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexAny(head, "\r\n"); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		var typ string
		var data []byte
		switch string(field) {
		case "event":
			typ = string(value)
		case "data":
			t, ok := dataType(value)
			if !ok {
				continue
			}
			typ, data = t, value
		default:
			continue
		}
		if typ == "error" {
			continue
		}
		return claimant(typ, data)
	}
	return Default()
}

// claimant is the format that claims an event, the default when none does.
func claimant(typ string, data []byte) *agent.Format {
	for _, f := range All()[1:] {
		if f.IsStreamEvent(typ, data) {
			return f
		}
	}
	return Default()
}
