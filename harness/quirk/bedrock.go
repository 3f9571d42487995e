package quirk

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// bedrockQuirks are the shapes of Bedrock's event stream framing itself,
// which no SSE quirk can make: each takes a Bedrock stream in either form
// (the Messages events Write gives, or framed) and gives it back framed.
// Every Messages quirk also applies to a Bedrock stream's events before
// they are framed (conform's Bedrock catalog serves them so); a shape of
// the writes (a message split at every byte, several in one write) is how
// a server paces the framed bytes, not a transform (conform's
// bedrock_bytes and bedrock_coalesced cases).
func bedrockQuirks() []Quirk {
	qs := []Quirk{
		{Name: "bedrock_padding", compose: aspects{edits: aFraming}, Benign: true, Apply: bedrockEdit(padChunks),
			Doc: `every chunk's payload carries a "p" member of letters beside "bytes", the padding Bedrock adds against length side channels (Amazon Bedrock runtime)`},
		{Name: "bedrock_unknown_event", compose: aspects{edits: aFraming | aUnknown}, Benign: true, Apply: bedrockEdit(unknownEventType),
			Doc: "an event message of a type the client was not built with, before the last chunk (an AWS event stream may add event types)"},
		{Name: "bedrock_exception_after_call", compose: aspects{edits: aFraming | aEnd, closes: afterEnd}, Benign: false, Apply: bedrockEdit(exceptionAfterCall),
			Doc: "a throttlingException message right after the first tool_use block's end, after HTTP 200, then the end (Amazon Bedrock runtime)"},
		{Name: "bedrock_bad_crc", compose: aspects{edits: aFraming | aEnd, closes: afterEnd}, Benign: false, Apply: bedrockEdit(badCRC),
			Doc: "the message CRC of the first tool input chunk is wrong: the stream is corrupt from there (AWS event stream framing)"},
	}
	for i := range qs {
		qs[i].API = messages.Bedrock.Name
	}
	return qs
}

// bedrockEdit applies edit to the framed messages of a Bedrock stream,
// framing it first when it came as Messages events; a stream that is
// neither is refused.
func bedrockEdit(edit func(msgs [][]byte, seed int64) ([][]byte, error)) func([]byte, int64) ([]byte, error) {
	return func(body []byte, seed int64) ([]byte, error) {
		framed := body
		if !messages.Bedrock.Framing.IsFramed(body) {
			if wire.Detect(body) != messages.Bedrock.Carries {
				return nil, fmt.Errorf("a %s stream, not bedrock: %w", wire.Detect(body).Name, ErrNotApplicable)
			}
			framed = sse.Framed(messages.Bedrock, body)
		} else if wire.Detect(body) != messages.Bedrock {
			return nil, fmt.Errorf("a framed stream that is not Bedrock's: %w", ErrNotApplicable)
		}
		msgs, err := edit(eventstream.Split(framed), seed)
		if err != nil {
			return nil, err
		}
		return bytes.Join(msgs, nil), nil
	}
}

// bedrockEvents reads each framed message's Messages event: its type and,
// for a content block event, the block's type ("" when the message is no
// chunk).
func bedrockEvents(msgs [][]byte) (types, blocks []string, deltas []string) {
	for _, m := range msgs {
		var ev struct {
			Type         string `json:"type"`
			ContentBlock struct {
				Type string `json:"type"`
			} `json:"content_block"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		logical, _ := io.ReadAll(messages.Bedrock.LogicalStream(bytes.NewReader(m)))
		_, data, _ := bytes.Cut(logical, []byte("data: "))
		json.Unmarshal(data, &ev)
		types, blocks, deltas = append(types, ev.Type), append(blocks, ev.ContentBlock.Type), append(deltas, ev.Delta.PartialJSON)
	}
	return types, blocks, deltas
}

// padChunks adds "p" (4 to 36 letters, picked by the seed) to every chunk.
func padChunks(msgs [][]byte, seed int64) ([][]byte, error) {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
	rng := rechunk.NewRand(seed)
	out := make([][]byte, 0, len(msgs))
	for _, raw := range msgs {
		m, err := eventstream.NewDecoder(bytes.NewReader(raw)).Next()
		if err != nil || m.Get(":event-type") != "chunk" {
			out = append(out, raw)
			continue
		}
		var chunk struct {
			Bytes string `json:"bytes"`
			P     string `json:"p"`
		}
		json.Unmarshal(m.Payload, &chunk)
		chunk.P = letters[:4+rng.Intn(len(letters)-3)]
		m.Payload, _ = json.Marshal(chunk)
		b, err := eventstream.Append(nil, m)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// unknownEventType puts an event message of an unknown type before the
// last message.
func unknownEventType(msgs [][]byte, _ int64) ([][]byte, error) {
	if len(msgs) == 0 {
		return nil, ErrNotApplicable
	}
	extra, err := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{
		eventstream.String(":event-type", "agentvcrUnknownEvent"),
		eventstream.String(":content-type", "application/json"),
		eventstream.String(":message-type", "event"),
	}, Payload: []byte(`{"note":"an event type no client knows"}`)})
	if err != nil {
		return nil, err
	}
	last := len(msgs) - 1
	return append(append(msgs[:last:last], extra), msgs[last]), nil
}

// exceptionAfterCall ends the stream with a throttlingException after the
// first tool_use block's content_block_stop.
func exceptionAfterCall(msgs [][]byte, _ int64) ([][]byte, error) {
	types, blocks, _ := bedrockEvents(msgs)
	inCall := false
	for i, typ := range types {
		switch {
		case typ == "content_block_start" && blocks[i] == "tool_use":
			inCall = true
		case typ == "content_block_stop" && inCall:
			exception := messages.Bedrock.FrameEvent([]byte("event: error\n" +
				`data: {"type":"error","error":{"type":"throttlingException","message":"Too many requests, please wait before trying again."}}` + "\n\n"))
			return append(msgs[:i+1:i+1], exception), nil
		}
	}
	return nil, fmt.Errorf("no tool_use block to end the stream after: %w", ErrNotApplicable)
}

// badCRC flips the message CRC of the first chunk that carries a piece of
// a tool's input.
func badCRC(msgs [][]byte, _ int64) ([][]byte, error) {
	types, _, deltas := bedrockEvents(msgs)
	for i, typ := range types {
		if typ == "content_block_delta" && deltas[i] != "" {
			m := append([]byte(nil), msgs[i]...)
			n := len(m) - 4
			binary.BigEndian.PutUint32(m[n:], ^binary.BigEndian.Uint32(m[n:]))
			out := append([][]byte(nil), msgs...)
			out[i] = m
			return out, nil
		}
	}
	return nil, fmt.Errorf("no tool input chunk to corrupt: %w", ErrNotApplicable)
}
