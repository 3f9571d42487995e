package quirk

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// quirkStream is a parsed SSE body that the quirk transforms edit: its
// events, each with its chunk parsed when the data is a JSON object. Only
// edited chunks are re-encoded, so untouched events keep their bytes.
type quirkStream struct {
	items []*streamItem
}

type streamItem struct {
	ev    sse.Event
	chunk *jsonObject // nil when the data is not a JSON object ([DONE], comments)
	dirty bool
}

// callGroup is one tool call of a stream: its pieces (positions in items, in
// stream order) and its identity as a clean stream gives it.
type callGroup struct {
	items []int
	index json.Number // "" when the pieces carry no index
	id    string
}

// parseQuirkStream parses body and gives every tool-call piece a chunk of
// its own, so each piece can be moved and edited alone.
func parseQuirkStream(body []byte) (*quirkStream, error) {
	s := &quirkStream{}
	for _, ev := range sse.Parse(body) {
		it := &streamItem{ev: ev}
		if ev.HasData && strings.HasPrefix(strings.TrimSpace(ev.Data), "{") {
			obj, err := parseJSONObject(ev.Data)
			if err != nil {
				return nil, fmt.Errorf("event %d: %w", len(s.items)+1, err)
			}
			it.chunk = obj
		}
		s.items = append(s.items, explodeCalls(it)...)
	}
	return s, nil
}

// explodeCalls splits a chunk that carries several tool-call pieces into one
// chunk per piece; the first keeps the rest of the delta.
func explodeCalls(it *streamItem) []*streamItem {
	delta := firstDelta(it.chunk)
	if delta == nil || len(delta.array("tool_calls")) < 2 {
		return []*streamItem{it}
	}
	calls := delta.array("tool_calls")
	out := []*streamItem{it}
	delta.set("tool_calls", calls[:1])
	it.dirty = true
	for _, tc := range calls[1:] {
		out = append(out, pieceItem(it, tc.(*jsonObject)))
	}
	return out
}

// firstDelta returns choices[0].delta of a chunk, or nil.
func firstDelta(chunk *jsonObject) *jsonObject {
	if chunk == nil {
		return nil
	}
	choices := chunk.array("choices")
	if len(choices) == 0 {
		return nil
	}
	choice, _ := choices[0].(*jsonObject)
	if choice == nil {
		return nil
	}
	return choice.object("delta")
}

// toolCall returns the item's tool-call piece when its chunk carries
// exactly one, else nil.
func (it *streamItem) toolCall() *jsonObject {
	calls := firstDelta(it.chunk).array("tool_calls")
	if len(calls) != 1 {
		return nil
	}
	tc, _ := calls[0].(*jsonObject)
	return tc
}

// pieceItem builds a chunk with the envelope of tmpl (id, model, ...) whose
// only content is the tool-call piece tc, with no finish_reason.
func pieceItem(tmpl *streamItem, tc *jsonObject) *streamItem {
	chunk := tmpl.chunk.clone()
	choice := chunk.array("choices")[0].(*jsonObject)
	choice.set("delta", &jsonObject{members: []jsonMember{{"tool_calls", []any{tc}}}})
	if _, ok := choice.get("finish_reason"); ok {
		choice.set("finish_reason", nil)
	}
	return &streamItem{ev: sse.Event{Name: tmpl.ev.Name, HasData: true}, chunk: chunk, dirty: true}
}

// calls groups the tool-call pieces as a clean stream means them: by index;
// without an index a new id opens a call and other pieces continue the last.
func (s *quirkStream) calls() []*callGroup {
	var c callGrouper
	for i, it := range s.items {
		if tc := it.toolCall(); tc != nil {
			c.add(i, tc)
		}
	}
	return c.groups
}

// callGrouper groups pieces one at a time, in stream order: a piece's call
// depends only on the pieces before it (calls reads a whole stream with it,
// a streamed piece edit one piece at a time).
type callGrouper struct {
	groups  []*callGroup
	byIndex map[json.Number]*callGroup
	last    *callGroup
}

// add puts the i-th item, whose piece is tc, in its call and returns it.
func (c *callGrouper) add(i int, tc *jsonObject) *callGroup {
	if c.byIndex == nil {
		c.byIndex = map[json.Number]*callGroup{}
	}
	idx, hasIdx := tc.get("index")
	num, _ := idx.(json.Number)
	var g *callGroup
	switch {
	case hasIdx && c.byIndex[num] != nil:
		g = c.byIndex[num]
	case hasIdx || tc.str("id") != "" || c.last == nil:
		g = &callGroup{index: num}
		c.groups = append(c.groups, g)
		if hasIdx {
			c.byIndex[num] = g
		}
	default:
		g = c.last
	}
	if g.id == "" {
		g.id = tc.str("id")
	}
	g.items = append(g.items, i)
	c.last = g
	return g
}

// contiguous reports whether each call's pieces follow one another with no
// piece of another call in between.
func contiguous(groups []*callGroup, s *quirkStream) bool {
	owner := map[int]int{}
	for gi, g := range groups {
		for _, i := range g.items {
			owner[i] = gi
		}
	}
	seen := map[int]bool{}
	prev := -1
	for i := range s.items {
		gi, ok := owner[i]
		if !ok {
			continue
		}
		if gi != prev && seen[gi] {
			return false
		}
		seen[gi], prev = true, gi
	}
	return true
}

// arguments is the call's arguments text, its pieces concatenated.
func (s *quirkStream) arguments(g *callGroup) string {
	var b strings.Builder
	for _, i := range g.items {
		if fn := s.items[i].toolCall().object("function"); fn != nil {
			b.WriteString(fn.str("arguments"))
		}
	}
	return b.String()
}

// resplit replaces a call's pieces by a head piece (the first piece's id,
// type and name, arguments "") and one piece per fragment, placed where the
// call's first piece was.
func (s *quirkStream) resplit(g *callGroup, frags []string) {
	first := s.items[g.items[0]]
	head := pieceItem(first, first.toolCall().clone())
	if fn := head.toolCall().object("function"); fn != nil {
		fn.set("arguments", "")
	}
	repl := []*streamItem{head}
	for _, f := range frags {
		tc := &jsonObject{}
		if _, ok := first.toolCall().get("index"); ok {
			tc.set("index", json.Number(g.index))
		}
		tc.set("function", &jsonObject{members: []jsonMember{{"arguments", f}}})
		repl = append(repl, pieceItem(first, tc))
	}
	drop := map[int]bool{}
	for _, i := range g.items {
		drop[i] = true
	}
	var out []*streamItem
	for i, it := range s.items {
		switch {
		case i == g.items[0]:
			out = append(out, repl...)
		case !drop[i]:
			out = append(out, it)
		}
	}
	s.items = out
}

// bytes writes the stream back, re-encoding the chunks that were edited.
func (s *quirkStream) bytes(eol string) ([]byte, error) {
	events := make([]sse.Event, len(s.items))
	for i, it := range s.items {
		events[i] = it.ev
		if it.dirty {
			b, err := it.chunk.marshalLike(it.ev.Data)
			if err != nil {
				return nil, err
			}
			events[i].Data, events[i].HasData = string(b), true
		}
	}
	return sse.Format(events, eol), nil
}

// sortedByIndex returns the calls in the order an accumulator drains them:
// by numeric index, first-seen order breaking ties.
func sortedByIndex(groups []*callGroup) []*callGroup {
	out := append([]*callGroup(nil), groups...)
	sort.SliceStable(out, func(a, b int) bool {
		x, _ := out[a].index.Int64()
		y, _ := out[b].index.Int64()
		return x < y
	})
	return out
}
