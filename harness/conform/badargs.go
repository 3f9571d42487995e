package conform

import (
	"fmt"
	"slices"
)

// The refusal rule for a call that came whole but whose arguments are not
// JSON (bad_args): sending it back under its own name, its arguments as
// they came, answered with the error it met, is what the case asks for. An
// agent may instead send it back as a call of a tool of its own that stands
// for a call it could not use (opencode's "invalid", with the parse error
// as its arguments): nothing ran, and the history tells the model why, so
// that is the same deliberate recovery as a refused cut call (refusal.go),
// a WARNING. A renamed call counts as refused only when its arguments or
// its result say, in refusalWordsRe's words, that the arguments could not
// be parsed; otherwise the calls differ and the case fails.

// badCallRefusal finds, in the assistant message at a of r, the call that
// answers want's bad call (want[0], by id) sent back under another name,
// refused by the rule above: its index in the message's calls, and where
// the reason is said ("arguments say" or "result says").
func badCallRefusal(want []Call, r Request, a int) (i int, said string, ok bool) {
	if len(want) == 0 {
		return -1, "", false
	}
	bad := want[0]
	calls := r.Messages[a].Calls
	i = slices.IndexFunc(calls, func(c Call) bool { return c.ID == bad.ID && bad.ID != "" })
	if i < 0 || calls[i].Name == bad.Name {
		return -1, "", false
	}
	result, answered := answerOf(r, a, calls[i].ID)
	switch {
	case !answered:
		return -1, "", false
	case refusalWordsRe.MatchString(calls[i].Arguments):
		return i, "arguments say", true
	case refusalWordsRe.MatchString(result):
		return i, "result says", true
	}
	return -1, "", false
}

// asBadCall is calls with a refused bad call (badCallRefusal) named as the
// call it stands for, so that the calls compare as re-sent.
func asBadCall(want []Call, r Request, a int) []Call {
	calls := r.Messages[a].Calls
	i, _, ok := badCallRefusal(want, r, a)
	if !ok {
		return calls
	}
	calls = slices.Clone(calls)
	calls[i].Name = want[0].Name
	return calls
}

// badArgsRefused is the WARNING of a bad_args case whose agent refused the
// bad call that way, or ok false.
func badArgsRefused(want []Call, o outcome) (verdict, bool) {
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		i, said, ok := badCallRefusal(want, r.req, a)
		if !ok {
			return verdict{}, false
		}
		return verdict{status: Warning, details: fmt.Sprintf("request %d sends the call whose arguments are not JSON back refused, as a call of its own tool %q whose %s why: not run; %d calls re-sent and answered; exit 0",
			n+1, r.req.Messages[a].Calls[i].Name, said, len(want))}, true
	}
	return verdict{}, false
}
