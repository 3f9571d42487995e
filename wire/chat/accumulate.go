package chat

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/byindex"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
)

// callSlot is one tool call being assembled.
type callSlot struct {
	id       string
	name     string
	args     []byte
	lastAt   int    // where the last non-empty string piece of args begins
	prevAt   int    // where the one before it begins
	extra    []byte // extra_content as received (the first one), echoed as is
	index    int
	hasIndex bool
	seen     int // first-seen position among all calls
}

// accumulator assembles tool calls from pieces by the identity rules in doc.go.
// It never panics and never keys an array by index.
type accumulator struct {
	calls   []*callSlot
	byIndex byindex.Table[*callSlot]
	byID    map[string]*callSlot
	latest  *callSlot  // the call the last piece went to
	slab    []callSlot // calls are carved from this slab
	argSlab []byte     // and each one's arguments start in a window of this one
}

// Slab sizes of the accumulator: calls per slab, and the argument window
// each call starts with (arguments that outgrow it move to a buffer of
// their own), so that a call costs no allocation of its own.
const (
	callSlab  = 8
	argWindow = 64
)

// add merges one piece.
func (a *accumulator) add(p *toolPiece) {
	id := p.ID
	if id == "null" {
		id = ""
	}
	name := p.Function.Name
	c := a.find(p, id, name)
	if c == nil {
		if id == "" && name == "" && len(bytes.TrimSpace(argText(p.Function.Arguments))) == 0 {
			// A piece that carries nothing opens nothing; one that carries
			// only extra_content (Gemini's signature on its own) belongs to
			// the latest call.
			if len(p.Extra) > 0 && a.latest != nil && a.latest.extra == nil {
				a.latest.extra = bytes.Clone(p.Extra)
			}
			return
		}
		c = a.open(p.Index)
	}
	if len(p.Extra) > 0 && c.extra == nil {
		c.extra = bytes.Clone(p.Extra)
	}
	if p.Index.Set {
		if !c.hasIndex {
			c.index, c.hasIndex = p.Index.N, true
		}
		if _, used := a.byIndex.Get(p.Index.N); !used {
			a.byIndex.Set(p.Index.N, c)
		}
	}
	if id != "" {
		if c.id == "" {
			c.id = id
		}
		if _, known := a.byID[id]; !known {
			a.byID[id] = c
		}
	}
	c.name = joinName(c.name, name)
	c.addArgs(p.Function.Arguments)
	a.latest = c
}

// find returns the call a piece belongs to, or nil when it opens a new one.
func (a *accumulator) find(p *toolPiece, id, name string) *callSlot {
	if id != "" {
		if c := a.byID[id]; c != nil {
			return c // rule 1: a known id wins over any index
		}
	}
	if p.Index.Set { // rule 2
		c, _ := a.byIndex.Get(p.Index.N)
		if c != nil && id != "" && name != "" && (c.id != "" || (c.name != "" && c.name != name)) {
			return nil // a new call at a reused index (all calls at index 0)
		}
		return c
	}
	// rule 3: no index
	c := a.latest
	if c == nil || id != "" {
		return nil
	}
	if name != "" && c.name != "" && joinName(c.name, name) != c.name && len(c.args) > 0 {
		return nil // another name after arguments: the next call
	}
	return c
}

func (a *accumulator) open(x optIndex) *callSlot {
	if a.byID == nil {
		a.byID = make(map[string]*callSlot)
	}
	if len(a.slab) == cap(a.slab) {
		a.slab = make([]callSlot, 0, callSlab) // earlier slabs stay where calls points
		a.argSlab = make([]byte, callSlab*argWindow)
	}
	n := len(a.slab)
	a.slab = append(a.slab, callSlot{seen: len(a.calls)})
	c := &a.slab[n]
	c.args = a.argSlab[n*argWindow : n*argWindow : (n+1)*argWindow]
	a.calls = append(a.calls, c)
	if x.Set {
		a.byIndex.Set(x.N, c) // the newest call at an index takes the later id-less pieces
	}
	return c
}

// argText returns the text a string argument would append (its quoted bytes
// are enough to test for emptiness), or the value itself.
func argText(raw rawArgs) []byte {
	if len(raw) >= 2 && raw[0] == '"' {
		return raw[1 : len(raw)-1]
	}
	return raw
}

// addArgs appends a string fragment, remembering where it begins (for the
// cumulative reading, arguments.go); any other value (an object) is
// serialized compactly and replaces the text.
func (c *callSlot) addArgs(raw rawArgs) {
	switch {
	case len(raw) == 0:
		return
	case raw[0] == '"':
		at := len(c.args)
		c.args = jsonscan.AppendUnquoted(c.args, raw)
		if len(c.args) > at {
			c.prevAt, c.lastAt = c.lastAt, at
		}
		return
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		c.args = append(c.args[:0], raw...)
	} else {
		c.args = append(c.args[:0], b.Bytes()...)
	}
	c.prevAt, c.lastAt = 0, 0
}

// drain returns the calls sorted by index (a call without an index sorts by
// its first-seen position; ties go to the first seen), with empty arguments
// as "{}" and missing ids synthesized as call_<index>_<position>.
func (a *accumulator) drain() []agent.ToolCall {
	order := slices.Clone(a.calls)
	key := func(c *callSlot) int {
		if c.hasIndex {
			return c.index
		}
		return c.seen
	}
	slices.SortStableFunc(order, func(x, y *callSlot) int {
		return cmp.Or(cmp.Compare(key(x), key(y)), cmp.Compare(x.seen, y.seen))
	})
	out := make([]agent.ToolCall, len(order))
	for pos, c := range order {
		id := c.id
		if id == "" {
			id = a.synthID(key(c), pos)
		}
		args := string(c.arguments())
		if len(bytes.TrimSpace(c.args)) == 0 {
			args = "{}"
		}
		out[pos] = agent.ToolCall{ID: id, Type: "function", Function: agent.FunctionCall{Name: c.name, Arguments: args}}
		if c.extra != nil {
			out[pos].ExtraContent = json.RawMessage(c.extra)
		}
	}
	return out
}

// clone returns a copy that shares nothing with a (the calls get new slots,
// and the maps point at them).
func (a *accumulator) clone() accumulator {
	if len(a.calls) == 0 {
		return accumulator{}
	}
	b := accumulator{
		calls: make([]*callSlot, len(a.calls)),
		byID:  make(map[string]*callSlot, len(a.byID)),
	}
	moved := make(map[*callSlot]*callSlot, len(a.calls))
	for i, c := range a.calls {
		d := *c
		d.args = bytes.Clone(c.args)
		d.extra = bytes.Clone(c.extra)
		b.calls[i], moved[c] = &d, &d
	}
	b.byIndex = a.byIndex.Map(func(c *callSlot) *callSlot { return moved[c] })
	for k, c := range a.byID {
		b.byID[k] = moved[c]
	}
	b.latest = moved[a.latest]
	return b
}

// synthID makes call_<index>_<position>, suffixed until no real id has it.
func (a *accumulator) synthID(index, pos int) string {
	id := "call_" + strconv.Itoa(index) + "_" + strconv.Itoa(pos)
	for base, n := id, 2; a.byID[id] != nil; n++ {
		id = base + "_" + strconv.Itoa(n)
	}
	return id
}
