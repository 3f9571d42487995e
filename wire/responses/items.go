package responses

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/byindex"
)

// respItem is one output item being assembled.
type respItem struct {
	id     string // the first non-empty item id
	callID string
	name   string
	index  int // output_index

	kind      respKind
	hasIndex  bool
	open      bool // no output_item.done yet
	announced bool // an output_item.added named it

	prevAt *respItem // the item opened at the same output_index before this one

	args     []byte // function_call: deltas appended, then replaced by done text
	argsFrom string // where args came from: "" (nothing yet), "deltas", or the done event's type

	parts map[int]*respPart // message and reasoning text by content_index
}

// respPart is the text of one content part.
type respPart struct {
	text []byte
	from string // "deltas" or the done event's type; "" while empty
}

// respItems finds items through maps by item id, call id and output_index,
// never by position in an array.
type respItems struct {
	all     []*respItem // first-seen order
	byID    map[string]*respItem
	byCall  map[string]*respItem
	byIndex byindex.Table[*respItem] // the last item opened at each output_index; prevAt leads to the others
	// recent are the items findBytes found last by their own id: byID
	// never changes an id's item once set, so while it.id is the id asked
	// for, byID gives it, and the lookup is a comparison.
	recent [4]*respItem
	// noID and noCall are an id byID and a call id byCall were last found
	// not to hold ("" for none), until they are added: lookup and then
	// name ask for a new item's ids twice.
	noID, noCall string
	slab         []respItem  // items are carved from this slab
	ids          stringArena // the strings of the ids the fast path reads
	// fallbacks are the arguments output_item.added carried, used only
	// when nothing else supplies any: few items have them.
	fallbacks map[*respItem][]byte
	// argSlab is where each call's arguments start: a window of argWindow
	// bytes (arguments that outgrow it move to a buffer of their own).
	argSlab   []byte
	argWindow int
}

// Slab sizes: a slab holds as many items as the stream has opened so far,
// from minItemSlab to maxItemSlab, so that a stream's items cost a few
// allocations, not one each. A call's argument window is as long as the
// last arguments a done event confirmed, rounded up, from minArgWindow to
// maxArgWindow: the calls of one stream are mostly alike.
const (
	minItemSlab  = 8
	maxItemSlab  = 1024
	minArgWindow = 64
	maxArgWindow = 1024
	argSlabLen   = 64 * maxArgWindow
)

func newRespItems() respItems {
	return respItems{byID: map[string]*respItem{}, byCall: map[string]*respItem{}}
}

// lookup returns the item an event with this item id (and call id, for a
// whole item) at this output_index belongs to, or nil: the item with that id;
// else the function call with that call id; else, when the index is known,
// the latest item of the same kind at that output_index that is still open
// (servers that rotate item ids on every event, or that announce an item by
// its call id and send its deltas by item id, mean the item already open
// there). An item of another kind at the same index is never joined:
// reasoning and a function call may share one output_index. With
// onlyUnannounced (an output_item.added), the open item must be one that
// content events opened before any announcement.
func (s *respItems) lookup(id, callID string, kind respKind, index *int, onlyUnannounced bool) *respItem {
	it := s.idItem(id)
	if it != nil && it.kind == kind {
		return it
	}
	if it == nil && id != "" {
		s.noID = id // for name, next
	}
	if it := s.callItem(callID); it != nil {
		return it
	}
	if isCall(kind) {
		if it := s.byCall[id]; id != "" && it != nil {
			return it
		}
	}
	if index == nil {
		return nil
	}
	at, _ := s.byIndex.Get(*index)
	for it := at; it != nil; it = it.prevAt {
		if it.kind == kind && it.open && !(onlyUnannounced && it.announced) {
			return it
		}
	}
	return nil
}

// add opens a new item.
func (s *respItems) add(kind respKind, index *int) *respItem {
	if len(s.slab) == cap(s.slab) {
		// Earlier slabs stay where all points.
		s.slab = make([]respItem, 0, min(max(len(s.all), minItemSlab), maxItemSlab))
	}
	s.slab = append(s.slab, respItem{kind: kind, open: true})
	it := &s.slab[len(s.slab)-1]
	if index != nil {
		it.index, it.hasIndex = *index, true
		it.prevAt, _ = s.byIndex.Get(*index)
		s.byIndex.Set(*index, it)
	}
	s.all = append(s.all, it)
	return it
}

// window returns an empty buffer for a call's arguments, carved from the
// slab, when the call has none yet: the first deltas cost no allocation.
func (s *respItems) window(it *respItem) []byte {
	if it.args != nil {
		return it.args
	}
	w := max(s.argWindow, minArgWindow)
	if len(s.argSlab)+w > cap(s.argSlab) {
		s.argSlab = make([]byte, 0, argSlabLen)
	}
	n := len(s.argSlab)
	s.argSlab = s.argSlab[:n+w]
	return s.argSlab[n : n : n+w]
}

// sized notes how long a call's confirmed arguments were: the windows of
// the calls after it are that long and a quarter, rounded up.
func (s *respItems) sized(n int) {
	s.argWindow = min((n+n/4+15)&^15, maxArgWindow)
}

// find returns the item an event belongs to, opening one when none matches
// (content for an item never announced still counts).
func (s *respItems) find(id, callID string, kind respKind, index *int) *respItem {
	it := s.lookup(id, callID, kind, index, false)
	if it == nil {
		it = s.add(kind, index)
	}
	s.name(it, id, callID)
	return it
}

// findBytes is find for a delta's item id, which points into the event's
// data: a known id costs no allocation.
func (s *respItems) findBytes(id []byte, kind respKind, index *int) *respItem {
	for _, it := range s.recent {
		if it != nil && len(id) > 0 && it.id == string(id) && it.kind == kind {
			return it // byID[id] is it, for good
		}
	}
	if it := s.byID[string(id)]; len(id) > 0 && it != nil && it.kind == kind {
		if it.id == string(id) {
			copy(s.recent[1:], s.recent[:])
			s.recent[0] = it
		}
		return it
	}
	if it := s.byCall[string(id)]; len(id) > 0 && isCall(kind) && it != nil {
		return it
	}
	return s.find(string(id), "", kind, index)
}

// idItem is byID[id] (nil for ""), without hashing id when it is the
// own id of a recent item or was last found missing.
func (s *respItems) idItem(id string) *respItem {
	if id == "" {
		return nil
	}
	for _, it := range s.recent {
		if it != nil && it.id == id {
			return it // byID[id] is it, for good
		}
	}
	if id == s.noID {
		return nil
	}
	return s.byID[id]
}

// callItem is byCall[callID] (nil for ""), without hashing callID again
// when it was just found missing.
func (s *respItems) callItem(callID string) *respItem {
	if callID == "" || callID == s.noCall {
		return nil
	}
	it := s.byCall[callID]
	if it == nil {
		s.noCall = callID
	}
	return it
}

// idString returns an item id the fast path read, as a string: the
// item's own id when an item has it (the ids of done events), else a new
// string from the arena.
func (s *respItems) idString(b []byte) string {
	if it := s.idItem(string(b)); it != nil && it.id == string(b) {
		return it.id
	}
	return s.ids.string(b)
}

// callIDString is idString for a call id.
func (s *respItems) callIDString(b []byte) string {
	for _, it := range s.recent {
		if it != nil && it.callID == string(b) {
			return it.callID
		}
	}
	if it := s.byCall[string(b)]; it != nil && it.callID == string(b) {
		return it.callID
	}
	return s.ids.string(b)
}

// name records an item's ids: the first non-empty item id and call id win;
// later item ids become aliases.
func (s *respItems) name(it *respItem, id, callID string) {
	if id != "" {
		if it.id == "" {
			it.id = id
		}
		if s.idItem(id) == nil {
			s.byID[id], s.noID = it, ""
		}
	}
	if callID != "" && isCall(it.kind) {
		if it.callID == "" {
			it.callID = callID
		}
		if s.callItem(callID) == nil {
			s.byCall[callID], s.noCall = it, ""
		}
	}
}

// part returns the content part at index (0 when absent), creating it.
func (it *respItem) part(index *int) *respPart {
	n := 0
	if index != nil {
		n = *index
	}
	if it.parts == nil {
		it.parts = map[int]*respPart{}
	}
	p := it.parts[n]
	if p == nil {
		p = &respPart{}
		it.parts[n] = p
	}
	return p
}

// text is the item's parts joined in content_index order.
func (it *respItem) text() []byte {
	keys := make([]int, 0, len(it.parts))
	for k := range it.parts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b []byte
	for _, k := range keys {
		b = append(b, it.parts[k].text...)
	}
	return b
}

// sorted returns the items by output_index; ties and items without an index
// (which come after every indexed item) keep their first-seen order.
func (s *respItems) sorted() []*respItem {
	out := slices.Clone(s.all)
	slices.SortStableFunc(out, func(a, b *respItem) int {
		if a.hasIndex != b.hasIndex {
			if a.hasIndex {
				return -1
			}
			return 1
		}
		if a.hasIndex {
			return cmp.Compare(a.index, b.index)
		}
		return 0
	})
	return out
}

// calls returns the function and custom calls in output order. The call's
// id is its call_id (what function_call_output answers), else its item id,
// else a made-up call_<index>_<position>; empty arguments become "{}". A
// custom call has Type "custom" and its freeform input as the arguments,
// kept as they are ("" included).
func (s *respItems) calls(items []*respItem) []agent.ToolCall {
	n, size := 0, 0
	for _, it := range items {
		if isCall(it.kind) {
			n++
			size += len(s.callArgs(it))
		}
	}
	if n == 0 {
		return nil
	}
	var all strings.Builder // one string that every call's arguments slice, copied once
	all.Grow(size)
	for _, it := range items {
		if isCall(it.kind) {
			all.Write(s.callArgs(it))
		}
	}
	allArgs := all.String()
	out := make([]agent.ToolCall, 0, n)
	for _, it := range items {
		if !isCall(it.kind) {
			continue
		}
		id := it.callID
		if id == "" {
			id = it.id
		}
		if id == "" {
			id = "call_" + strconv.Itoa(it.index) + "_" + strconv.Itoa(len(out))
		}
		var args string
		args, allArgs = allArgs[:len(s.callArgs(it))], allArgs[len(s.callArgs(it)):]
		typ := "function"
		if it.kind == kindCustomCall {
			typ = "custom"
		} else if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		out = append(out, agent.ToolCall{ID: id, Type: typ, Function: agent.FunctionCall{Name: it.name, Arguments: args}})
	}
	return out
}

// callArgs is a call's arguments: what deltas and done events gave, else
// what output_item.added carried.
func (s *respItems) callArgs(it *respItem) []byte {
	if f := s.fallbacks[it]; it.argsFrom == "" && len(f) > 0 {
		return f
	}
	return it.args
}
