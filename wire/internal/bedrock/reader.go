package bedrock

import (
	"io"

	"github.com/agentvcr/agentvcr/wire/eventstream"
)

// NewReader reads an event stream as a route's logical form, one message
// at a time, as it arrives: event gives each message's SSE text (nothing
// for a message the route skips), told the message's byte offset for its
// errors. A framing error ends the reader with the decoder's error.
func NewReader(r io.Reader, event func(m eventstream.Message, at int64) ([]byte, error)) io.Reader {
	return &reader{dec: eventstream.NewDecoder(r), event: event}
}

type reader struct {
	dec     *eventstream.Decoder
	event   func(eventstream.Message, int64) ([]byte, error)
	pending []byte // the SSE text of the message read last, not yet read out
	err     error
}

func (r *reader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		at := r.dec.Offset()
		m, err := r.dec.Next()
		if err != nil {
			r.err = err
			continue
		}
		r.pending, r.err = r.event(m, at)
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}
