package chaos

import (
	"context"
	"errors"
	"net/http"

	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// errStalled is logged when a stall fault held an answer until its client
// went away.
var errStalled = errors.New("the stall fault held the answer until the client went away")

// faultStream passes the first f.EventsBefore() events of what inner sends
// (the answer as it comes when inner is nil), then breaks the answer as
// f says: an error event in the format's shape and the end (error-event), no
// more bytes until the client goes away (stall), or the connection closed
// mid-stream (reset). An event is passed once it is whole.
type faultStream struct {
	ctx   context.Context
	inner record.Rewriter
	f     serve.Fault
	tail  string // the error event

	left    int    // events still to pass
	pending []byte // the start of an event not yet whole
	broken  bool   // the events before the fault have passed
}

func newFaultStream(ctx context.Context, inner record.Rewriter, f serve.Fault, errorEvent string) *faultStream {
	return &faultStream{ctx: ctx, inner: inner, f: f, tail: errorEvent, left: f.EventsBefore()}
}

func (s *faultStream) Write(p []byte) ([]byte, error) {
	if s.broken {
		return nil, s.after()
	}
	var err error
	if s.inner != nil {
		p, err = s.inner.Write(p)
	}
	return s.cut(p), err
}

func (s *faultStream) Close() ([]byte, error) {
	if s.broken {
		return nil, s.after()
	}
	var p []byte
	var err error
	if s.inner != nil {
		p, err = s.inner.Close()
	}
	out := s.cut(p)
	if !s.broken { // the answer ended before the fault's events: the fault acts at its end
		out = append(out, s.pending...)
		s.pending = nil
		out = append(out, s.breakNow()...)
	}
	return out, err
}

// End is the proxy's last call, once Close's bytes have gone out: a stall
// or reset that broke the answer at its end acts here.
func (s *faultStream) End() error {
	if !s.broken {
		return nil
	}
	return s.after()
}

// cut passes whole events while some are left to pass, then breaks.
func (s *faultStream) cut(p []byte) []byte {
	s.pending = append(s.pending, p...)
	var out []byte
	for !s.broken {
		if s.left == 0 {
			out = append(out, s.breakNow()...)
			break
		}
		events := sse.SplitEvents(s.pending)
		if len(events) < 2 { // the last piece may not be whole yet
			break
		}
		out = append(out, events[0]...)
		s.pending = s.pending[len(events[0]):]
		s.left--
	}
	return out
}

// breakNow marks the fault's point and returns what goes out there.
func (s *faultStream) breakNow() []byte {
	s.broken = true
	s.pending = nil
	if s.f.Kind == serve.FaultErrorEvent {
		return []byte(s.tail)
	}
	return nil
}

// after is what happens to every later piece of the answer: dropped
// (error-event), held until the client goes (stall), or the connection
// closed (reset).
func (s *faultStream) after() error {
	switch s.f.Kind {
	case serve.FaultStall:
		<-s.ctx.Done()
		return errStalled
	case serve.FaultReset:
		// Aborting the handler makes net/http close the connection without
		// ending the chunked body: the client reads an unexpected EOF.
		panic(http.ErrAbortHandler)
	}
	return nil
}
