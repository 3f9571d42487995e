package quirk

import (
	"encoding/json"
	"fmt"
)

// chunksAfterFinish sends two events after the one with the finishReason:
// one with the usage alone and no candidate, one with a candidate that has
// neither content nor finishReason (streams go on after the finish when
// the API reports usage late; code-execution answers send STOP mid-way).
// A client that stops reading at the first finishReason misses nothing
// here, but one that takes the last event for the turn's end reads an
// empty turn.
func chunksAfterFinish(evs []*jsonObject) ([]*jsonObject, error) {
	last := len(evs) - 1
	if last < 0 || candidate(evs[last]) == nil {
		return nil, fmt.Errorf("no candidate to follow: %w", ErrNotApplicable)
	}
	usage := evs[last].clone()
	usage.del("candidates")
	empty := evs[last].clone()
	c := &jsonObject{}
	c.set("index", json.Number("0"))
	empty.set("candidates", []any{c})
	empty.del("usageMetadata")
	return append(evs, usage, empty), nil
}

// secondCandidateText is the text of the second candidate: no correct
// client shows it or sends it back.
const secondCandidateText = "(another answer)"

// secondCandidate interleaves a second candidate (index 1, as
// candidateCount 2 asks for) with the first: a text part and a decoy call
// in events of its own, after each of the first candidate's events but the
// last. A merger that keeps only index 0 is unchanged; one that merges
// every candidate shows the other answer and runs its call.
func secondCandidate(evs []*jsonObject) ([]*jsonObject, error) {
	if len(evs) < 2 {
		return nil, fmt.Errorf("too few events to interleave: %w", ErrNotApplicable)
	}
	other := func(part *jsonObject) *jsonObject {
		ev := evs[0].clone()
		content := &jsonObject{}
		content.set("parts", []any{part})
		content.set("role", "model")
		c := &jsonObject{}
		c.set("content", content)
		c.set("index", json.Number("1"))
		ev.set("candidates", []any{c})
		ev.del("usageMetadata")
		return ev
	}
	text := &jsonObject{}
	text.set("text", " "+secondCandidateText)
	args := &jsonObject{}
	args.set("pattern", "decoy/**")
	fc := &jsonObject{}
	fc.set("name", "glob")
	fc.set("args", args)
	call := &jsonObject{}
	call.set("functionCall", fc)
	out := []*jsonObject{evs[0], other(text)}
	out = append(out, evs[1:len(evs)-1]...)
	out = append(out, other(call), evs[len(evs)-1])
	return out, nil
}
