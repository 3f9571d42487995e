package quirk

import "fmt"

// Where Gemini 3 puts thought signatures (Google's thought-signatures
// guide): one per turn, on the first functionCall part of parallel calls,
// or on a part of its own, an empty text part, when the turn thought
// before it called. A client must keep each where it came and send it back
// there; one that wants a signature on every call, or drops a text part
// that is empty, breaks on these.

// quirkSignature is the signature the quirks add where the clean stream
// has none.
const quirkSignature = "Q2F0YWxvZ1NpZ25hdHVyZQ=="

// signatureFirstOnly leaves a thoughtSignature on the first call part of
// the turn alone: the clean stream's own (from any call part), or one the
// quirk makes.
func signatureFirstOnly(evs []*jsonObject) ([]*jsonObject, error) {
	var calls []*jsonObject
	var sig any = quirkSignature
	for _, ev := range evs {
		for _, p := range parts(ev) {
			po := p.(*jsonObject)
			if po.object("functionCall") == nil {
				continue
			}
			calls = append(calls, po)
			if s, ok := po.get("thoughtSignature"); ok {
				sig = s
			}
		}
	}
	if len(calls) < 2 {
		return nil, fmt.Errorf("no parallel calls: %w", ErrNotApplicable)
	}
	for _, c := range calls {
		c.del("thoughtSignature")
	}
	calls[0].set("thoughtSignature", sig)
	return evs, nil
}

// signatureOnEmptyText moves the turn's signatures to an empty text part
// of its own, in an event before the calls.
func signatureOnEmptyText(evs []*jsonObject) ([]*jsonObject, error) {
	i := callEvent(evs)
	if i < 0 {
		return nil, fmt.Errorf("no call: %w", ErrNotApplicable)
	}
	var sig any = quirkSignature
	for _, p := range parts(evs[i]) {
		po := p.(*jsonObject)
		if s, ok := po.get("thoughtSignature"); ok {
			sig = s
			po.del("thoughtSignature")
		}
	}
	ev := evs[i].clone()
	text := &jsonObject{}
	text.set("text", "")
	text.set("thoughtSignature", sig)
	setParts(ev, []any{text})
	candidate(ev).del("finishReason")
	ev.del("usageMetadata")
	return append(append(evs[:i:i], ev), evs[i:]...), nil
}
