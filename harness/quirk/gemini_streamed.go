package quirk

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Vertex AI streams a call's arguments by JSON path when the request asks
// for it (streamFunctionCallArguments, Gemini 3): a part that names the
// call and says willContinue, parts whose partialArgs each set one value
// at a jsonPath (a string in as many pieces as the model wrote it), and an
// empty functionCall part that ends the call. The quirks below send the
// clean stream's calls that way, in the shapes a merger must read alike.

// pieceSplit cuts one string argument into the pieces it is streamed in.
type pieceSplit func(s string) []string

// wholeString sends a string in one piece: the clean shape.
func wholeString(s string) []string { return []string{s} }

// runeByRune sends a string one rune a piece (an empty one in one piece).
func runeByRune(s string) []string {
	if s == "" {
		return []string{""}
	}
	return oneRune(s)
}

// atEscapes cuts a string before and after each character that JSON
// escapes (a quote, a backslash, a control character) and each rune
// beyond ASCII, so that every such character comes in a piece of its own:
// a merger that joins pieces as JSON text, not as decoded strings, breaks
// there.
func atEscapes(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if r == '"' || r == '\\' || r < 0x20 || r >= utf8.RuneSelf {
			if i > start {
				out = append(out, s[start:i])
			}
			out = append(out, string(r))
			start = i + utf8.RuneLen(r)
		}
	}
	if start < len(s) || len(out) == 0 {
		out = append(out, s[start:])
	}
	return out
}

// streamedLeaf is one value of a call's arguments as partialArgs set it.
type streamedLeaf struct {
	path string
	val  any // string, json.Number, bool or nil
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// leafPath is path extended by a member: $.key, or $['key'] for a key
// that is not a plain name.
func leafPath(path, key string) string {
	if plainKey.MatchString(key) {
		return path + "." + key
	}
	return path + "['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(key) + "']"
}

// leaves are the values of args in document order. An empty object or
// array has no leaf to set: it stays in the opening part's args (a call
// may carry some of its arguments whole), which rest returns.
func leaves(args *jsonObject) (out []streamedLeaf, rest *jsonObject) {
	rest = &jsonObject{}
	var walk func(path string, v any) bool // false: v has no leaf
	walk = func(path string, v any) bool {
		switch t := v.(type) {
		case *jsonObject:
			found := false
			for _, m := range t.members {
				if walk(leafPath(path, m.key), m.val) {
					found = true
				}
			}
			return found
		case []any:
			found := false
			for i, e := range t {
				if walk(path+"["+strconv.Itoa(i)+"]", e) {
					found = true
				}
			}
			return found
		}
		out = append(out, streamedLeaf{path: path, val: v})
		return true
	}
	for _, m := range args.members {
		if !walk(leafPath("$", m.key), m.val) {
			rest.set(m.key, m.val)
		}
	}
	return out, rest
}

// partialArg is the partialArgs entry that sets piece of leaf (a string
// piece, or the whole value).
func partialArg(path string, val any, more bool) *jsonObject {
	a := &jsonObject{}
	a.set("jsonPath", path)
	switch t := val.(type) {
	case string:
		a.set("stringValue", t)
	case json.Number:
		a.set("numberValue", t)
	case bool:
		a.set("boolValue", t)
	case nil:
		a.set("nullValue", "NULL_VALUE")
	}
	if more {
		a.set("willContinue", true)
	}
	return a
}

// streamedOptions are the shapes of one streamed call.
type streamedOptions struct {
	split pieceSplit
	// interleaved sends the pieces of all values round-robin: the first
	// piece of each value in order, then the second of each, and so on,
	// so a string's pieces come between another's. Each value's first
	// piece keeps its place, and so the members keep their order.
	interleaved bool
	repeat      bool // every part repeats the call's id and name, and the last part ends it (no {} part)
}

// streamedCall is the parts that stream one call part (a functionCall with
// its args, and its thoughtSignature when it has one).
func streamedCall(part *jsonObject, o streamedOptions) ([]*jsonObject, error) {
	fc := part.object("functionCall")
	args, _ := fc.get("args")
	argsObj, ok := args.(*jsonObject)
	if args != nil && !ok {
		return nil, fmt.Errorf("a call's args are not an object: %w", ErrNotApplicable)
	}
	if argsObj == nil {
		argsObj = &jsonObject{}
	}
	ls, rest := leaves(argsObj)
	call := func() *jsonObject {
		c := &jsonObject{}
		if o.repeat {
			if id, ok := fc.get("id"); ok {
				c.set("id", id)
			}
			c.set("name", fc.str("name"))
		}
		return c
	}
	head := fc.clone()
	head.del("args")
	if len(rest.members) > 0 {
		head.set("args", rest)
	}
	head.set("willContinue", true)
	first := &jsonObject{}
	first.set("functionCall", head)
	if sig, ok := part.get("thoughtSignature"); ok {
		first.set("thoughtSignature", sig)
	}
	out := []*jsonObject{first}
	type piece struct {
		path string
		val  any
		more bool
	}
	perLeaf := make([][]piece, len(ls))
	for k, l := range ls {
		s, isString := l.val.(string)
		if !isString {
			perLeaf[k] = []piece{{l.path, l.val, false}}
			continue
		}
		ps := o.split(s)
		for i, p := range ps {
			perLeaf[k] = append(perLeaf[k], piece{l.path, p, i < len(ps)-1})
		}
	}
	var pieces []piece
	if o.interleaved {
		for round := 0; len(pieces) < countPieces(perLeaf); round++ {
			for _, ps := range perLeaf {
				if round < len(ps) {
					pieces = append(pieces, ps[round])
				}
			}
		}
	} else {
		for _, ps := range perLeaf {
			pieces = append(pieces, ps...)
		}
	}
	for i, p := range pieces {
		c := call()
		c.set("partialArgs", []any{partialArg(p.path, p.val, p.more)})
		if !o.repeat || i < len(pieces)-1 {
			c.set("willContinue", true)
		}
		part := &jsonObject{}
		part.set("functionCall", c)
		out = append(out, part)
	}
	if !o.repeat || len(pieces) == 0 {
		end := &jsonObject{}
		end.set("functionCall", &jsonObject{})
		out = append(out, end)
	}
	return out, nil
}

func countPieces[T any](perLeaf [][]T) int {
	n := 0
	for _, ps := range perLeaf {
		n += len(ps)
	}
	return n
}

// streamArgs sends every call of the call event as streamedCall parts, one
// part an event, the finishReason and usage on the last.
func streamArgs(o streamedOptions) func(evs []*jsonObject) ([]*jsonObject, error) {
	return func(evs []*jsonObject) ([]*jsonObject, error) {
		i := callEvent(evs)
		if i < 0 {
			return nil, fmt.Errorf("no call to stream: %w", ErrNotApplicable)
		}
		var before, streamed []any
		for _, p := range parts(evs[i]) {
			po := p.(*jsonObject)
			if po.object("functionCall") == nil {
				before = append(before, p)
				continue
			}
			ps, err := streamedCall(po, o)
			if err != nil {
				return nil, err
			}
			for _, q := range ps {
				streamed = append(streamed, q)
			}
		}
		var out []*jsonObject
		if len(before) > 0 {
			ev := evs[i].clone()
			setParts(ev, before)
			candidate(ev).del("finishReason")
			ev.del("usageMetadata")
			out = append(out, ev)
		}
		for k, p := range streamed {
			ev := evs[i].clone()
			setParts(ev, []any{p})
			if k < len(streamed)-1 {
				candidate(ev).del("finishReason")
				ev.del("usageMetadata")
			}
			out = append(out, ev)
		}
		return append(append(evs[:i:i], out...), evs[i+1:]...), nil
	}
}

// streamArgsCut streams the calls' arguments, then the stream ends two
// parts into the last call: the calls before it were delivered whole (their
// end part came), the last was not, and no finishReason comes.
func streamArgsCut(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 {
		return nil, fmt.Errorf("no call to cut: %w", ErrNotApplicable)
	}
	streamed, err := streamArgs(streamedOptions{split: atEscapes})(evs)
	if err != nil {
		return nil, err
	}
	// the last call's opening part is the last event whose functionCall has a name
	last := -1
	for k, ev := range streamed {
		for _, p := range parts(ev) {
			if fc := p.(*jsonObject).object("functionCall"); fc != nil && fc.str("name") != "" {
				last = k
			}
		}
	}
	if last < 0 || last+2 > len(streamed) {
		return nil, fmt.Errorf("no streamed call to cut: %w", ErrNotApplicable)
	}
	return streamed[:last+2], nil
}
