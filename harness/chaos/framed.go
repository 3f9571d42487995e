package chaos

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/eventstream"
)

// framedStream runs inner, a Rewriter of a format's logical form (its SSE
// events: a quirk, a fault), on an answer in the format's framing
// (Bedrock's event stream): each whole message read as its events is
// handed to inner, and what inner sends is framed again, event by event,
// once each event is whole. So every quirk and fault of the carried format
// breaks a framed answer the way it breaks an SSE one.
type framedStream struct {
	api    *agent.Format
	inner  record.Rewriter
	in     []byte // the start of a message not yet whole
	out    []byte // the start of an event inner sent, not yet whole
	ender  interface{ End() error }
	failed bool // a message did not read: the rest passes as it comes
}

func newFramedStream(api *agent.Format, inner record.Rewriter) *framedStream {
	s := &framedStream{api: api, inner: inner}
	s.ender, _ = inner.(interface{ End() error })
	return s
}

func (s *framedStream) Write(p []byte) ([]byte, error) {
	if s.failed {
		return p, nil
	}
	s.in = append(s.in, p...)
	var logical, raw []byte
	for len(s.in) > 0 {
		n, ok := messageLen(s.in)
		if ok && n == 0 {
			break // the message is not whole yet
		}
		var events []byte
		var err error
		if ok {
			events, err = io.ReadAll(s.api.LogicalStream(bytes.NewReader(s.in[:n])))
		}
		if !ok || err != nil {
			// What does not read passes on as it came, and the rest
			// after it: the client's reader is the one to name it.
			s.failed, raw, s.in = true, s.in, nil
			break
		}
		logical = append(logical, events...)
		s.in = s.in[n:]
	}
	out, err := s.pass(s.inner.Write(logical))
	return append(out, raw...), err
}

func (s *framedStream) Close() ([]byte, error) {
	out, err := s.pass(s.inner.Close())
	if len(s.out) > 0 {
		out = append(out, s.api.FrameEvent(s.out)...)
		s.out = nil
	}
	return append(out, s.in...), err
}

// End passes inner's last word on (a stall waits, a reset closes).
func (s *framedStream) End() error {
	if s.ender == nil {
		return nil
	}
	return s.ender.End()
}

// pass frames the whole events of what inner sent.
func (s *framedStream) pass(p []byte, err error) ([]byte, error) {
	s.out = append(s.out, p...)
	var framed []byte
	for {
		n := sse.FirstEventEnd(s.out)
		if n == 0 {
			break
		}
		framed = append(framed, s.api.FrameEvent(s.out[:n])...)
		s.out = s.out[n:]
	}
	return framed, err
}

// messageLen is the length of the message in starts with when it is
// all there (0 when more must come first), and false for a length no
// message has.
func messageLen(in []byte) (int, bool) {
	if len(in) < 4 {
		return 0, true
	}
	n := int(binary.BigEndian.Uint32(in))
	switch {
	case n < 16 || n > eventstream.MaxMessage:
		return 0, false
	case n > len(in):
		return 0, true
	}
	return n, true
}

// chain runs two Rewriters one after the other: what first sends, second
// reads.
type chain [2]record.Rewriter

func (c chain) Write(p []byte) ([]byte, error) {
	out, err := c[0].Write(p)
	out2, err2 := c[1].Write(out)
	return out2, errors.Join(err, err2)
}

func (c chain) Close() ([]byte, error) {
	out, err := c[0].Close()
	out2, err2 := c[1].Write(out)
	out3, err3 := c[1].Close()
	return append(out2, out3...), errors.Join(err, err2, err3)
}

// End is the second's last word, when it has one.
func (c chain) End() error {
	if e, ok := c[1].(interface{ End() error }); ok {
		return e.End()
	}
	return nil
}
