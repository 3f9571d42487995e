package harness

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// stream writes an SSE reply event by event (or piece by piece under a
// Rechunk), pausing Pace before each and flushing each (the headers with
// the first event unless a pause comes first; the last with the body's
// end), or at once under Coalesce, and applies a stream fault when faulty.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, reply ServeReply, route *Route, faulty bool) {
	events := reply.Events
	if events == nil {
		events = SplitEvents(reply.Body)
	}
	f := route.Fault
	tail := ""
	if faulty && f.breaksStream() {
		events = events[:min(len(events), f.events())]
		if f.Kind == FaultErrorEvent {
			tail = errorEventFor(r.URL.Path)
		}
	}
	if route.Rechunk.Mode != RechunkWhole {
		events = route.Rechunk.Pieces(append(bytes.Join(events, nil), tail...))
		tail = ""
	}
	coalesce := route.Coalesce && route.Pace == 0 && route.Rechunk.Mode == RechunkWhole
	if coalesce {
		// One write: the headers, every event and the end of the body
		// leave in as few packets as the connection's buffer allows.
		whole := reply.Body
		if len(whole) == 0 || (faulty && f.breaksStream()) {
			whole = append(bytes.Join(events, nil), tail...)
		}
		events, tail = [][]byte{whole}, ""
	}
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	perEvent := flusher != nil && !coalesce
	if perEvent && (route.Pace > 0 || len(events) == 0) {
		flusher.Flush() // the headers go out before the first pause
	}
	var timer *time.Timer
	for i, e := range events {
		if route.Pace > 0 {
			if timer == nil {
				timer = time.NewTimer(route.Pace)
				defer timer.Stop()
			} else {
				timer.Reset(route.Pace)
			}
			select {
			case <-timer.C:
			case <-r.Context().Done():
				return
			case <-s.done:
				return
			}
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

// SplitEvents cuts an SSE body after each blank line (an event's end),
// whatever the line endings (LF, CRLF, CR); joined, the pieces are the body.
// A last event without its blank line is the last piece.
func SplitEvents(body []byte) [][]byte {
	var out [][]byte
	start, lineStart := 0, true
	for i := 0; i < len(body); {
		n := 0
		switch body[i] {
		case '\n':
			n = 1
		case '\r':
			n = 1
			if i+1 < len(body) && body[i+1] == '\n' {
				n = 2
			}
		}
		if n == 0 {
			lineStart = false
			i++
			continue
		}
		i += n
		if lineStart {
			out = append(out, body[start:i])
			start = i
		}
		lineStart = true
	}
	if start < len(body) {
		out = append(out, body[start:])
	}
	return out
}

// A JournalEntry is one line of a Server's Journal: a request and what
// answered it.
type JournalEntry struct {
	Seq    int64  `json:"seq"`
	Case   string `json:"case"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Model  string `json:"model"`
	Turn   int    `json:"turn"`
	// Status is the HTTP status sent.
	Status int `json:"status"`
	// From names the recorded reply served ("" when none was).
	From string `json:"from,omitempty"`
	// Fault is the fault applied to this request, as ParseFault reads it.
	Fault string `json:"fault,omitempty"`
	// Error is the message of a miss.
	Error string `json:"error,omitempty"`
	// Request is the request body: compact JSON, or a JSON string when the
	// body is not JSON.
	Request json.RawMessage `json:"request"`

	body []byte // Request before it is encoded, only when there is a journal
}

func journalBody(body []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, body) == nil {
		return buf.Bytes()
	}
	s, _ := json.Marshal(string(body))
	return s
}

func (s *Server) write(e JournalEntry) {
	if s.Journal == nil {
		return
	}
	e.Request = journalBody(e.body)
	line, err := json.Marshal(e)
	if err != nil {
		return // every field marshals
	}
	s.out.Lock()
	defer s.out.Unlock()
	s.Journal.Write(append(line, '\n'))
}
