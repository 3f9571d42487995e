package quirk

import "github.com/agentvcr/agentvcr/harness/sse"

// The quirks of content and choices: delta.content as an array of typed
// parts, and a second answer interleaved with the first (n > 1). Unlike the
// call transforms they also change streams without calls.

// contentParts turns every non-empty content string into an array holding
// one text part, the shape Mistral and Databricks send (litellm #16272,
// databricks/appkit #559).
func contentParts(body []byte, _ int64) ([]byte, error) {
	s, err := parseQuirkStream(body)
	if err != nil {
		return nil, err
	}
	for _, it := range s.items {
		d := firstDelta(it.chunk)
		if d == nil {
			continue
		}
		if text := d.str("content"); text != "" {
			part := &jsonObject{members: []jsonMember{{"type", "text"}, {"text", text}}}
			d.set("content", []any{part})
			it.dirty = true
		}
	}
	return s.bytes("\n")
}

// decoyCall is the call the second answer of severalChoices makes; a
// merger that mixed the answers would run it.
const decoyCall = `{"pattern":"decoy/**"}`

// decoyText is the text every chunk of the second answer but its first
// carries.
const decoyText = " (another answer)"

// severalChoices interleaves a second answer (choice 1) with the stream's
// own (choice 0), as OpenAI streams n > 1 (litellm #35793): after every
// chunk of choice 0 comes a chunk of choice 1, the first with a glob call of
// its own, the others with text, the last with a finish. The choice index
// goes back down at the second chunk of choice 0, so a correct merger keeps
// choice 0 alone. A stream with fewer than two chunks of choice 0 cannot
// show that and is left as it is.
func severalChoices(body []byte, _ int64) ([]byte, error) {
	s, err := parseQuirkStream(body)
	if err != nil {
		return nil, err
	}
	var own []int
	for i, it := range s.items {
		if firstDelta(it.chunk) != nil {
			own = append(own, i)
		}
	}
	if len(own) < 2 {
		return body, nil
	}
	var out []*streamItem
	n := 0
	for i, it := range s.items {
		out = append(out, it)
		if n < len(own) && own[n] == i {
			out = append(out, decoyItem(it, n, n == len(own)-1))
			n++
		}
	}
	s.items = out
	return s.bytes("\n")
}

// decoyItem is the n-th chunk of the second answer, in tmpl's envelope.
func decoyItem(tmpl *streamItem, n int, last bool) *streamItem {
	chunk := tmpl.chunk.clone()
	delta := &jsonObject{members: []jsonMember{{"content", decoyText}}}
	if n == 0 {
		fn := &jsonObject{members: []jsonMember{{"name", "glob"}, {"arguments", decoyCall}}}
		tc := &jsonObject{members: []jsonMember{
			{"index", 0}, {"id", "call_decoy"}, {"type", "function"}, {"function", fn}}}
		delta = &jsonObject{members: []jsonMember{{"role", "assistant"}, {"content", nil}, {"tool_calls", []any{tc}}}}
	}
	var finish any
	if last {
		finish = "tool_calls"
	}
	choice := &jsonObject{members: []jsonMember{{"index", 1}, {"delta", delta}, {"finish_reason", finish}}}
	chunk.set("choices", []any{choice})
	chunk.del("usage")
	return &streamItem{ev: sse.Event{Name: tmpl.ev.Name, HasData: true}, chunk: chunk, dirty: true}
}

// severalChoicesEditor is severalChoices on an answer as it arrives. It
// holds the answer until its second chunk of choice 0 (before it, the
// answer may be too short to change), then each chunk of choice 0 until the
// next one comes or the answer ends: only then is it known whether the
// decoy after it is the second answer's last chunk (with the finish).
type severalChoicesEditor struct {
	raw     []byte        // the answer as it came, until it is known to change
	pending []*streamItem // from the latest chunk of choice 0 on
	// pendingBytes is the size of the events pending was parsed from.
	pendingBytes int
	own          int // chunks of choice 0 so far
}

func (e *severalChoicesEditor) held() int { return len(e.raw) + e.pendingBytes }

func newSeveralChoicesEditor(int64) editor { return &severalChoicesEditor{} }

func (e *severalChoicesEditor) event(raw []byte) ([]byte, error) {
	if e.own < 2 {
		e.raw = append(e.raw, raw...)
	}
	s, err := parseQuirkStream(raw)
	if err != nil {
		if e.own < 2 {
			return e.raw, err
		}
		held, _ := (&quirkStream{items: e.pending}).bytes("\n") // they were read whole
		return append(held, raw...), err
	}
	var out []*streamItem
	for _, it := range s.items {
		if firstDelta(it.chunk) != nil {
			if e.own > 0 {
				out = append(out, e.flush(false)...)
			}
			e.own++
		}
		e.pending = append(e.pending, it)
	}
	e.pendingBytes += len(raw)
	if e.own < 2 {
		return nil, nil
	}
	e.raw = nil
	return (&quirkStream{items: out}).bytes("\n")
}

func (e *severalChoicesEditor) end() ([]byte, error) {
	if e.own < 2 {
		return e.raw, nil // as severalChoices leaves a short answer
	}
	return (&quirkStream{items: e.flush(true)}).bytes("\n")
}

// flush returns the pending items with the decoy after the chunk of
// choice 0 among them (the own-th), and empties them.
func (e *severalChoicesEditor) flush(last bool) []*streamItem {
	var out []*streamItem
	for _, it := range e.pending {
		out = append(out, it)
		if firstDelta(it.chunk) != nil {
			out = append(out, decoyItem(it, e.own-1, last))
		}
	}
	e.pending, e.pendingBytes = nil, 0
	return out
}
