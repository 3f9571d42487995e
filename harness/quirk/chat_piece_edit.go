package quirk

import "fmt"

// A pieceEdit is a call transform that edits each tool-call piece knowing
// only its call: tc is the piece, head the call's first piece, g the call
// (its index and id as the clean stream gives them) and n its place among
// the stream's calls (0-based). It reports whether it changed tc. Such a
// transform streams: each piece is edited as it comes (pieceForm).
type pieceEdit func(tc, head *jsonObject, g *callGroup, n int) (bool, error)

// eachPiece makes a whole-stream edit (callEdit's) of a pieceEdit.
func eachPiece(edit pieceEdit) func(*quirkStream, []*callGroup) error {
	return func(s *quirkStream, groups []*callGroup) error {
		for n, g := range groups {
			head := s.items[g.items[0]].toolCall()
			for _, i := range g.items {
				changed, err := edit(s.items[i].toolCall(), head, g, n)
				if err != nil {
					return err
				}
				s.items[i].dirty = s.items[i].dirty || changed
			}
		}
		return nil
	}
}

// pieceForm streams a pieceEdit: nothing is held.
func pieceForm(edit pieceEdit) streamForm {
	return streamForm{custom: func(int64) editor { return &pieceEditor{edit: edit} }, holds: "nothing"}
}

// pieceEditor groups the pieces as they come (callGrouper) and edits each.
// A call that turns out not to fit the transform (no numeric index) after
// pieces were edited cannot be undone: Apply would have refused the whole
// answer; the error says so.
type pieceEditor struct {
	edit   pieceEdit
	calls  callGrouper
	heads  map[*callGroup]*jsonObject
	order  map[*callGroup]int
	pieces int
	edited bool
}

func (e *pieceEditor) event(raw []byte) ([]byte, error) {
	s, err := parseQuirkStream(raw)
	if err != nil {
		return raw, err
	}
	if e.heads == nil {
		e.heads, e.order = map[*callGroup]*jsonObject{}, map[*callGroup]int{}
	}
	for _, it := range s.items {
		tc := it.toolCall()
		if tc == nil {
			continue
		}
		g := e.calls.add(e.pieces, tc)
		e.pieces++
		if e.heads[g] == nil {
			e.heads[g], e.order[g] = tc, len(e.calls.groups)-1
		}
		changed, err := e.edit(tc, e.heads[g], g, e.order[g])
		if err != nil {
			if e.edited {
				return raw, fmt.Errorf("%w, after edited pieces were sent", err)
			}
			return raw, err
		}
		if changed {
			it.dirty, e.edited = true, true
		}
	}
	return s.bytes("\n")
}

func (e *pieceEditor) end() ([]byte, error) { return nil, nil }

// held is 0: what it keeps of each call (its first piece, where its pieces
// are) is not the answer's bytes.
func (e *pieceEditor) held() int { return 0 }
