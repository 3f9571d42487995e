package quirk

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
)

// A Stream applies one quirk to one answer as it arrives: Write takes the
// upstream's bytes in whatever pieces they come and returns the bytes to
// send on now, Close returns the rest. The bytes a Stream sends in all are
// exactly q.Apply(answer, seed), however the answer was cut, except when
// Apply fails: see Write.
//
// What a Stream holds back depends on the quirk (Quirk.Holds says it): a
// quirk that edits each event on its own holds nothing but the event being
// read; one that edits the answer's calls holds from the first call event
// on; one whose edit reaches the answer's first events holds the answer.
// Until the answer's format is known (its first event that says it, as
// wire.Detect reads it) a quirk of one format holds those events too.
type Stream struct {
	q       Quirk
	seed    int64
	pending []byte // the event being read, not yet complete
	// scanned is where in pending a scan for the event's end resumes: just
	// after its last LF seen, a line's start before which no event ended.
	scanned int
	ed      editor // nil until the format is known to be the quirk's
	decided bool   // the answer's format is known (or the quirk takes any)
	// head is the events read before the format was known, one after the
	// other (a copy: pending's room is reused), headEnds where each ends.
	head     []byte
	headEnds []int
	passing  bool // an error happened: the rest passes as it comes
	maxHeld  int  // the most Held may reach; 0: no bound
	cut      bool // over maxHeld: nothing more is sent
	// chain is a composition's parts' Streams, in order (stream_chain.go);
	// nil for a quirk of All.
	chain []*Stream
}

// ErrHoldLimit is what Write returns when taking the next bytes would make
// a Stream hold more of the answer than LimitHeld allows: the answer
// cannot be rewritten within the bound, what was held is dropped, and the
// Stream sends nothing more (Write and Close return no bytes): the answer
// is cut there.
var ErrHoldLimit = errors.New("the quirk would hold more of the answer than its limit")

// editor is a quirk's streaming form: it takes each complete event (its
// bytes as they came) and returns what to send now; end returns the rest.
// An error comes with the bytes to send in place of what was held (the
// answer as it came); the Stream then passes the rest through. held is how
// many bytes of the answer it keeps.
type editor interface {
	event(raw []byte) ([]byte, error)
	end() ([]byte, error)
	held() int
}

// Stream starts q on one answer; seed is the one q.Apply would get.
func (q Quirk) Stream(seed int64) *Stream {
	s := &Stream{q: q, seed: seed}
	if q.parts != nil {
		for _, p := range q.parts {
			s.chain = append(s.chain, p.Stream(seed))
		}
		return s
	}
	if q.API == "" || framed(q.API) {
		s.decided, s.ed = true, q.streaming.editor(q, seed)
	}
	return s
}

// framed reports a format with a framing of its own: its quirks read
// either form and say themselves what they refuse (bedrock.go), so the
// answer's format is not settled by its first events.
func framed(api string) bool {
	f, err := wire.ByName(api)
	return err == nil && f.Framing != nil
}

// LimitHeld bounds what s holds to max bytes (none when max <= 0): a
// Write whose bytes would take Held past it returns ErrHoldLimit, sends
// nothing more and drops what was held, so that an answer whose call never
// ends (an upstream that keeps sending its arguments) cannot make the
// Stream grow without bound.
func (s *Stream) LimitHeld(max int) { s.maxHeld = max }

// Held is how many bytes of the answer s keeps now: the event being read,
// the events read before the format was known, and what the quirk's edit
// keeps (for a quirk that holds from its first call on, the answer so far).
// After every Write it is at most the LimitHeld bound.
func (s *Stream) Held() int {
	if s.chain != nil {
		return s.chainHeld()
	}
	n := len(s.pending) + len(s.head)
	if s.ed != nil {
		n += s.ed.held()
	}
	return n
}

// Write takes the next bytes of the answer and returns those to send now.
// An error (ErrNotApplicable when the quirk does not apply to this
// answer, as Apply would say) comes with the bytes to send all the same:
// what was held, as it came. From then on the Stream passes the answer
// through as it comes, and Close adds nothing.
func (s *Stream) Write(p []byte) ([]byte, error) {
	if s.cut {
		return nil, nil
	}
	if s.passing {
		return p, nil
	}
	if held := s.Held(); s.maxHeld > 0 && held+len(p) > s.maxHeld {
		s.cut = true
		s.pending, s.head, s.headEnds, s.ed, s.chain = nil, nil, nil, nil, nil
		return nil, s.wrap(fmt.Errorf("%w: it holds %d bytes, %d more came, the limit is %d", ErrHoldLimit, held, len(p), s.maxHeld))
	}
	if s.chain != nil {
		return s.chainWrite(p)
	}
	// Events that p holds whole are read from p itself; only an event
	// begun and not ended is copied, into pending, whose room is reused
	// (the editors copy what they keep).
	buf, from := p, 0
	if len(s.pending) > 0 {
		// No event completes without a line end, or the byte after a CR
		// that may have begun a CRLF: skip the scan.
		crLast := s.pending[len(s.pending)-1] == '\r'
		s.pending = append(s.pending, p...)
		if !crLast && bytes.IndexByte(p, '\n') < 0 && bytes.IndexByte(p, '\r') < 0 {
			return nil, nil
		}
		buf, from = s.pending, s.scanned
	}
	var out []byte
	for {
		n := completeEvent(buf, from)
		if n == 0 {
			break
		}
		sent, err := s.event(buf[:n:n])
		buf, from = buf[n:], 0
		s.scanned = 0
		out = append(out, sent...)
		if err != nil {
			s.passing = true
			out = append(out, buf...)
			s.pending = nil
			return out, s.wrap(err)
		}
	}
	// What is left begins an event: keep it, and where to scan it from
	// (bytes trickling in one by one must not make the scans quadratic).
	s.pending = append(s.pending[:0], buf...)
	s.scanned += bytes.LastIndexByte(s.pending[s.scanned:], '\n') + 1
	return out, nil
}

// Close ends the answer and returns the bytes still to send (see Write for
// an error).
func (s *Stream) Close() ([]byte, error) {
	if s.passing || s.cut {
		return nil, nil
	}
	if s.chain != nil {
		return s.chainClose()
	}
	var out []byte
	if len(s.pending) > 0 {
		sent, err := s.event(s.pending)
		s.pending, s.scanned = nil, 0
		out = append(out, sent...)
		if err != nil {
			s.passing = true
			return out, s.wrap(err)
		}
	}
	if !s.decided {
		if err := s.decide(true); err != nil {
			s.passing = true
			return append(out, s.head...), s.wrap(err)
		}
		sent, err := s.replay()
		out = append(out, sent...)
		if err != nil {
			s.passing = true
			return out, s.wrap(err)
		}
	}
	rest, err := s.ed.end()
	s.passing = true
	return append(out, rest...), s.wrap(err)
}

func (s *Stream) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("quirk %s: %w", s.q.Name, err)
}

// event hands one complete event to the editor once the format is known.
func (s *Stream) event(raw []byte) ([]byte, error) {
	if s.decided {
		return s.ed.event(raw)
	}
	s.head = append(s.head, raw...)
	s.headEnds = append(s.headEnds, len(s.head))
	if err := s.decide(false); err != nil {
		return s.head, err
	}
	if !s.decided {
		return nil, nil
	}
	return s.replay()
}

// replay hands the events read before the format was known to the editor.
func (s *Stream) replay() ([]byte, error) {
	var out []byte
	start := 0
	for _, end := range s.headEnds {
		sent, err := s.ed.event(s.head[start:end:end])
		out = append(out, sent...)
		if err != nil {
			out = append(out, s.head[end:]...)
			s.head, s.headEnds = nil, nil
			return out, err
		}
		start = end
	}
	s.head, s.headEnds = nil, nil
	return out, nil
}

// decide settles the answer's format from the events read so far: known
// once wire.Detect would read it the same whatever came next (probed with
// a Messages event and with a bare chat chunk), or at the end. A format
// other than the quirk's is ErrNotApplicable, as the guard of All says.
//
// Detect goes by the first line that says a format, so the probes agree
// only when the head has one (alone the two say different formats), and
// then they read what Detect reads of the head alone. A head read with
// the first probe as another format than the probe alone says has such a
// line: the second probe is not needed.
func (s *Stream) decide(atEnd bool) error {
	head := s.head
	var f *agent.Format
	if atEnd {
		f = wire.Detect(head)
	} else {
		n := len(head)
		f = wire.Detect(append(head, "\n"+messagesProbe...))
		if f == messagesProbeFormat && wire.Detect(append(head[:n], "\n"+chatProbe...)) != f {
			return nil // not known yet
		}
	}
	s.decided = true
	if f.Name != s.q.API {
		return fmt.Errorf("a %s stream, not %s: %w", f.Name, s.q.API, ErrNotApplicable)
	}
	s.ed = s.q.streaming.editor(s.q, s.seed) // made only for a stream it edits
	return nil
}

// The probes of decide, and the format the first says alone.
const (
	messagesProbe = "event: message_start\n"
	chatProbe     = "data: {}\n"
)

var messagesProbeFormat = wire.Detect([]byte(messagesProbe))

// completeEvent is the length of the first complete event in b (as
// sse.SplitEvents cuts it: up to and with the blank line that ends it), 0
// when b holds none yet. A CR at the very end may be the first half of a
// CRLF, so an event ending there waits for the next byte. The scan starts
// at from, a line's start (just after an LF) before which no event ends.
func completeEvent(b []byte, from int) int {
	n := sse.FirstEventEnd(b[from:])
	if n == 0 {
		return 0
	}
	n += from
	if n == len(b) && b[n-1] == '\r' {
		return 0
	}
	return n
}

// errPassed marks an editor's own failure: the whole-body form changed an
// event the streaming form had already sent (a bug in the quirk's
// streaming form, which the streaming test catches).
var errPassed = errors.New("the whole-body transform changed an event already sent")
