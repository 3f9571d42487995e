package quirk

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// The chat-completions quirks of how a call's name and arguments are cut
// into pieces: the name in two pieces, the arguments cumulative,
// the arguments sent whole again at the end.
func chatPieceQuirks(api string) []Quirk {
	return []Quirk{
		{Name: "name_in_pieces", compose: aspects{edits: aNames | aPieceNames}, streaming: chatCalls, API: api, Benign: true, Apply: callEdit(nameInPieces),
			Doc: `the tool name in two pieces, "gl" then "ob" (Kimi: kimi-code #3220; NeMo Switchyard PR #785; continue PR #5849)`},
		{Name: "args_cumulative", OnArguments: true, compose: aspects{edits: aPieces, needs: aArgs}, streaming: chatCalls, API: api, Benign: true, Apply: callEdit(argsCumulative),
			Doc: "every argument piece carries all the arguments so far (DeepSeek and Qianfan: hermes-agent PR #35718; MiniMax: oh-my-pi PR #2082)"},
		{Name: "args_repeated_at_end", OnArguments: true, compose: aspects{edits: aPieces, needs: aArgs}, streaming: chatCalls, API: api, Benign: true, Apply: callEdit(argsRepeatedAtEnd),
			Doc: "the whole arguments sent again in one last piece after the deltas (OpenRouter: Effect-TS/effect PR #7132, opencodex #361)"},
	}
}

// insertAfter puts it right after position i.
func (s *quirkStream) insertAfter(i int, it *streamItem) {
	s.items = slices.Insert(s.items, i+1, it)
}

// piece builds a tool-call piece of group g (its index when the stream has
// them, no id) whose function member is fn, in the envelope of item at.
func (s *quirkStream) piece(g *callGroup, at int, fn *jsonObject) *streamItem {
	tc := &jsonObject{}
	if g.index != "" {
		tc.set("index", g.index)
	}
	tc.set("function", fn)
	return pieceItem(s.items[at], tc)
}

// nameInPieces cuts each call's name in two: the head keeps the first half
// and a piece right after it carries the rest.
func nameInPieces(s *quirkStream, groups []*callGroup) error {
	for n := range groups {
		g := s.calls()[n] // positions move as pieces are added
		head := s.items[g.items[0]].toolCall().object("function")
		name := head.str("name")
		if utf8.RuneCountInString(name) < 2 {
			return fmt.Errorf("call %d's name %q cannot be cut: %w", n+1, name, ErrNotApplicable)
		}
		cut := len(string([]rune(name)[:utf8.RuneCountInString(name)/2]))
		head.set("name", name[:cut])
		s.items[g.items[0]].dirty = true
		s.insertAfter(g.items[0], s.piece(g, g.items[0], obj("name", name[cut:])))
	}
	return nil
}

// validArgs refuses a stream with a call whose arguments are not valid
// JSON: read cumulatively, such pieces cannot be told from deltas, so the
// shape would change what the stream means (the bad_args script).
func validArgs(s *quirkStream, groups []*callGroup) error {
	for _, g := range groups {
		if args := s.arguments(g); args != "" && !json.Valid([]byte(args)) {
			return fmt.Errorf("call %s has arguments that are not valid JSON: %w", g.id, ErrNotApplicable)
		}
	}
	return nil
}

// argsCumulative makes each argument piece carry the text of every piece
// before it too.
func argsCumulative(s *quirkStream, groups []*callGroup) error {
	if err := validArgs(s, groups); err != nil {
		return err
	}
	for _, g := range groups {
		sofar := ""
		for _, i := range g.items {
			fn := s.items[i].toolCall().object("function")
			if fn == nil {
				continue
			}
			if _, isString := member(fn, "arguments").(string); !isString {
				return fmt.Errorf("call %s has arguments that are not a string: %w", g.id, ErrNotApplicable)
			}
			piece := fn.str("arguments")
			if piece == "" {
				continue
			}
			sofar += piece
			fn.set("arguments", sofar)
			s.items[i].dirty = true
		}
	}
	return nil
}

// argsRepeatedAtEnd adds, after each call's last piece, one piece with the
// whole arguments again.
func argsRepeatedAtEnd(s *quirkStream, groups []*callGroup) error {
	if err := validArgs(s, groups); err != nil {
		return err
	}
	for n := range groups {
		g := s.calls()[n]
		args := s.arguments(g)
		if args == "" {
			continue
		}
		last := g.items[len(g.items)-1]
		s.insertAfter(last, s.piece(g, last, obj("arguments", args)))
	}
	return nil
}

// member is o's member key, nil when absent.
func member(o *jsonObject, key string) any {
	v, _ := o.get(key)
	return v
}
