package quirk

import (
	"hash"
	"hash/fnv"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// streamForm is how a quirk works on an answer as it arrives (Stream),
// with the same bytes as its whole-body Apply. Each format's list sets it
// beside Apply; the zero form holds the answer and applies at its end.
type streamForm struct {
	// local: Apply edits each event on its own, so Apply(answer) is the
	// events' Apply one after the other and nothing is held.
	local bool
	// last: Apply edits only the answer's last data event (and passes the
	// others as pass writes them), so that event alone is held.
	last bool
	// holdFrom, when set, makes for each answer the test that names the
	// first event the transform may edit: the events before it are sent as
	// pass writes them (the way Apply writes an event it leaves alone),
	// from it on the answer is held and Apply'd at its end.
	holdFrom func() func(*passEvent) bool
	from     string // what holdFrom names, for Holds
	pass     func(*passEvent) ([]byte, error)
	// custom builds an editor of its own (comments, whose seed draws a
	// number per event; several_choices), which holds what holds says.
	custom func(seed int64) editor
	holds  string
	// apply is the quirk's Apply without the format guard (All sets it):
	// a local form applies it to single events, whose format alone may not
	// tell, a holding one to the answer, whose format the Stream's own
	// guard has already checked (once, not again at the end).
	apply func([]byte, int64) ([]byte, error)
}

// Holds says what a Stream of the quirk holds back: "nothing" (it edits
// each event as it comes), "from the first tool-call piece" and the like
// (the events before it go on at once, the rest at the answer's end) or
// "the answer" (its edit reaches the first events, or needs the end to
// know where it goes).
func (q Quirk) Holds() string {
	switch f := q.streaming; {
	case q.parts != nil:
		return q.holdsParts()
	case f.custom != nil:
		return f.holds
	case f.local:
		return "nothing"
	case f.last:
		return "the latest event"
	case f.holdFrom != nil:
		return "from " + f.from
	}
	return "the answer"
}

func (f streamForm) editor(q Quirk, seed int64) editor {
	switch {
	case f.custom != nil:
		return f.custom(seed)
	case f.local:
		return &localEditor{apply: f.apply, seed: seed}
	case f.last:
		return &lastEditor{apply: f.apply, seed: seed, pass: f.pass}
	}
	e := &holdEditor{apply: f.apply, seed: seed, pass: f.pass}
	if f.holdFrom != nil {
		e.holdFrom = f.holdFrom()
	}
	return e
}

// localEditor applies a quirk that edits each event on its own to each
// event as it comes.
type localEditor struct {
	apply func([]byte, int64) ([]byte, error)
	seed  int64
}

func (e *localEditor) event(raw []byte) ([]byte, error) {
	out, err := e.apply(raw, e.seed)
	if err != nil {
		return raw, err
	}
	return out, nil
}

func (e *localEditor) end() ([]byte, error) { return nil, nil }

func (e *localEditor) held() int { return 0 }

// lastEditor holds the latest data event until the next one comes (then
// sends it as pass writes it); at the end it sends what Apply makes of the
// last one alone.
type lastEditor struct {
	apply   func([]byte, int64) ([]byte, error)
	seed    int64
	pass    func(*passEvent) ([]byte, error)
	pending []byte // the latest data event, as it came
}

func (e *lastEditor) event(raw []byte) ([]byte, error) {
	var out []byte
	for _, ev := range sse.Parse(raw) {
		if !ev.HasData {
			b, err := e.pass(&passEvent{Event: ev})
			if err != nil {
				return append(e.pending, raw...), err
			}
			out = append(out, b...)
			continue
		}
		if e.pending != nil {
			b, err := e.pass(&passEvent{Event: sse.Parse(e.pending)[0]})
			if err != nil {
				return append(e.pending, raw...), err
			}
			out = append(out, b...)
		}
		e.pending = append(e.pending[:0], raw...) // raw's room is the Stream's
	}
	return out, nil
}

func (e *lastEditor) held() int { return len(e.pending) }

func (e *lastEditor) end() ([]byte, error) {
	out, err := e.apply(e.pending, e.seed)
	if err != nil {
		return e.pending, err
	}
	return out, nil
}

// holdEditor sends the events before the first one holdFrom names as pass
// writes them, holds the rest, and at the end sends what Apply makes of the
// whole answer after what was sent. It keeps a copy of the answer to apply
// to, and checks that what it sent is what Apply begins with: by length and
// checksum, so that what was sent is not kept a second time.
type holdEditor struct {
	apply    func([]byte, int64) ([]byte, error)
	seed     int64
	pass     func(*passEvent) ([]byte, error)
	holdFrom func(*passEvent) bool

	all      []byte      // the answer so far, as it came
	sent     int         // how many bytes were sent
	sentSum  hash.Hash64 // their checksum (nil until some are)
	heldFrom int         // where in all the held events begin
	holding  bool
}

func (e *holdEditor) held() int { return len(e.all) }

func (e *holdEditor) event(raw []byte) ([]byte, error) {
	e.all = append(e.all, raw...)
	if e.holding {
		return nil, nil
	}
	parsed := sse.Parse(raw)
	events := make([]passEvent, len(parsed))
	for i, ev := range parsed {
		events[i].Event = ev
	}
	if e.holdFrom == nil || (len(events) == 1 && e.holdFrom(&events[0])) {
		e.holding, e.heldFrom = true, len(e.all)-len(raw)
		return nil, nil
	}
	var out []byte
	for i := range events {
		b, err := e.pass(&events[i])
		if err != nil {
			return raw, err
		}
		out = append(out, b...)
	}
	if e.sentSum == nil {
		e.sentSum = fnv.New64a()
	}
	e.sentSum.Write(out)
	e.sent += len(out)
	e.heldFrom = len(e.all)
	return out, nil
}

func (e *holdEditor) end() ([]byte, error) {
	held := e.all[e.heldFrom:]
	whole, err := e.apply(e.all, e.seed)
	if err != nil {
		return held, err
	}
	if !e.sentBegins(whole) {
		return held, errPassed
	}
	return whole[e.sent:], nil
}

// sentBegins reports whether whole begins with the bytes sent.
func (e *holdEditor) sentBegins(whole []byte) bool {
	if e.sent == 0 {
		return true
	}
	if len(whole) < e.sent {
		return false
	}
	sum := fnv.New64a()
	sum.Write(whole[:e.sent])
	return sum.Sum64() == e.sentSum.Sum64()
}

// commentsEditor streams comments: the first comment before the first
// event, the seed's keepalives before each event, one after the last.
type commentsEditor struct {
	pick    func() int
	started bool
}

func newCommentsEditor(seed int64) editor {
	rng := newCommentRand(seed)
	return &commentsEditor{pick: func() int { return rng.Intn(3) }}
}

func (e *commentsEditor) event(raw []byte) ([]byte, error) {
	var out []sse.Event
	if !e.started {
		e.started = true
		out = append(out, sse.Event{Comments: []string{" OPENROUTER PROCESSING"}})
	}
	for _, ev := range sse.Parse(raw) {
		out = append(out, keepalives(ev, e.pick()))
	}
	return sse.Format(out, "\n"), nil
}

func (e *commentsEditor) held() int { return 0 }

func (e *commentsEditor) end() ([]byte, error) {
	var out []sse.Event
	if !e.started {
		out = append(out, sse.Event{Comments: []string{" OPENROUTER PROCESSING"}})
	}
	out = append(out, sse.Event{Comments: []string{" keepalive"}})
	return sse.Format(out, "\n"), nil
}
