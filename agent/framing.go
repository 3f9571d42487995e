package agent

import (
	"bufio"
	"io"
)

// A Framing is how a format's stream travels when it is not server-sent
// events as text: Amazon Bedrock's binary event stream. A format keeps one
// logical form of its stream, SSE events ("event: T\ndata: {...}\n\n"), in
// everything that writes or edits a stream (Write, ErrorEvent, the quirks,
// the scripted gateway); the framing turns each of those events into the
// bytes a server sends, and turns the bytes a client reads back into them.
// Keeping the two apart lets every quirk of a format apply, unchanged, to
// the same format carried in another framing.
type Framing struct {
	// Name is the framing's name, for messages ("AWS event stream").
	Name string
	// ContentType is the Content-Type of a framed stream.
	ContentType string
	// Frame renders one event of the logical form (ending in its blank
	// line) as the bytes it travels in. An event it has no framing for (a
	// comment) gives nothing.
	Frame func(event []byte) []byte
	// Unframe reads a framed stream as the logical form, as it arrives
	// (one message at a time, so memory stays flat on any length); a
	// framing error ends the reader with an error that names its byte
	// offset.
	Unframe func(r io.Reader) io.Reader
	// Split cuts a framed body after each of its messages (what a server
	// paces); bytes after the last whole message make a last piece.
	Split func(body []byte) [][]byte
	// IsFramed reports whether a stream that starts with head is framed
	// rather than in the logical form (text SSE starts with a printable
	// byte; a framed message with its length's high byte, zero). It needs
	// no more than the first byte.
	IsFramed func(head []byte) bool
	// Claims reports whether a framed stream that starts with head is this
	// format's rather than another's of the same framing (Bedrock's two
	// routes), from its first whole message: what Detect asks. nil claims
	// every framed stream.
	Claims func(head []byte) bool
}

// StreamContentType is the Content-Type of f's streams:
// text/event-stream, or its framing's.
func (f *Format) StreamContentType() string {
	if f != nil && f.Framing != nil {
		return f.Framing.ContentType
	}
	return "text/event-stream"
}

// FrameEvent is one event of f's logical form as it travels: the event as
// it is for SSE, else framed.
func (f *Format) FrameEvent(event []byte) []byte {
	if f == nil || f.Framing == nil {
		return event
	}
	return f.Framing.Frame(event)
}

// LogicalStream reads a stream of f, framed or already in its logical form,
// as the logical form: what a merger and a quirk read.
func (f *Format) LogicalStream(r io.Reader) io.Reader {
	if f == nil || f.Framing == nil {
		return r
	}
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	if f.Framing.IsFramed(head) {
		return f.Framing.Unframe(br)
	}
	return br
}
