package serve

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// stream writes an SSE reply event by event (or piece by piece under a
// Rechunk), pausing Pace before each and flushing each (the headers with
// the first event unless a pause comes first; the last with the body's
// end), or at once under Coalesce, and applies a stream fault when faulty.
// For a format with a framing (api.Framing), an event is one framed
// message: a reply in the format's logical form (SSE) is framed event by
// event after a fault has cut it, so that a fault cuts the same events in
// either framing; a reply already framed is cut after each message.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, reply Reply, api *agent.Format, route *Route, faulty bool) {
	pause := newPacer(route, reply, time.Now())
	events := reply.Events
	framed := isFramedReply(api, reply)
	switch {
	case framed:
		events = api.Framing.Split(reply.Body)
	case events == nil:
		events = sse.SplitEvents(reply.Body)
	}
	f := route.Fault
	tail := ""
	if faulty && f.BreaksStream() {
		events = events[:min(len(events), f.EventsBefore())]
		if f.Kind == FaultErrorEvent {
			tail = ErrorEvent(r.URL.Path)
		}
	}
	if api != nil && api.Framing != nil {
		if !framed {
			events = frameEach(api, events)
		}
		tail = string(api.FrameEvent([]byte(tail))) // the error event: framed in any reply
	}
	if route.Rechunk.Mode != rechunk.Whole {
		events = route.Rechunk.Pieces(append(bytes.Join(events, nil), tail...))
		tail = ""
	}
	coalesce := route.Coalesce && !pause.paced() && route.Rechunk.Mode == rechunk.Whole
	if coalesce {
		// One write: the headers, every event and the end of the body
		// leave in as few packets as the connection's buffer allows.
		whole := reply.Body
		if len(whole) == 0 || (faulty && f.BreaksStream()) || (api != nil && api.Framing != nil) {
			whole = append(bytes.Join(events, nil), tail...)
		}
		events, tail = [][]byte{whole}, ""
	}
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	perEvent := flusher != nil && !coalesce
	if perEvent && (pause.paced() || len(events) == 0) {
		flusher.Flush() // the headers go out before the first pause
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	paced := pause.paced() // an unpaced reply never reads the clock
	for i, e := range events {
		if paced && !s.wait(r, &timer, pause.before(i, time.Now())) {
			return
		}
		if _, err := w.Write(e); err != nil {
			return // the client went away
		}
		// The last event of a clean reply leaves with the end of the body
		// when the handler returns: one write less.
		if perEvent && (i < len(events)-1 || tail != "" || faulty) {
			flusher.Flush()
		}
	}
	if tail != "" {
		io.WriteString(w, tail)
		if flusher != nil {
			flusher.Flush()
		}
	}
	if flusher != nil && coalesce && faulty {
		flusher.Flush()
	}
	if !faulty {
		return
	}
	switch f.Kind {
	case FaultStall:
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
	case FaultReset:
		// Aborting the handler makes net/http close the connection without
		// ending the chunked body: the client reads an unexpected EOF.
		panic(http.ErrAbortHandler)
	}
}

// frameEach frames every event of api's logical form, leaving out those
// that are nothing in its framing (comments).
func frameEach(api *agent.Format, events [][]byte) [][]byte {
	out := make([][]byte, 0, len(events))
	for _, e := range events {
		if b := api.FrameEvent(e); len(b) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// wait pauses d (not at all when d <= 0) on *timer, made on first use;
// false when the request or the server ended first.
func (s *Server) wait(r *http.Request, timer **time.Timer, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	if *timer == nil {
		*timer = time.NewTimer(d)
	} else {
		(*timer).Reset(d)
	}
	select {
	case <-(*timer).C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}

// ErrorEvent is the error event of the format a request path is in (the
// default's when none serves it): what an error-event fault sends.
func ErrorEvent(path string) string {
	if f := wire.ForPath(path); f != nil {
		return f.ErrorEvent
	}
	return wire.Default().ErrorEvent
}
