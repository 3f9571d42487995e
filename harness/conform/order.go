package conform

import "github.com/google/go-cmp/cmp"

// The order rule, the same for every format: each API pairs a call with
// its result by id (chat's tool_call_id, Messages' tool_use_id, Responses'
// call_id, Gemini's functionResponse id or name), so the order of parallel
// calls in the assistant message is free. An agent that re-sends a turn's
// calls in another order (response.completed lists them so in some
// gateways; index -1's call sorts before index 0's) loses nothing, and is
// judged on the calls it sent. Where the text stands among the items of a
// turn is the format reader's business: Responses takes the message item
// before or after the function_call items (request_responses.go), Messages
// answers 400 when text follows a tool_use block (checkAnswered).

// inSentOrder returns want in got's order when got holds the same calls in
// another order, with skip (the call whose arguments are not compared, -1
// for none) moved along; else want and skip as they were.
func inSentOrder(want, got []Call, withIDs bool, skip int) ([]Call, int) {
	if len(want) != len(got) {
		return want, skip
	}
	used := make([]bool, len(want))
	out := make([]Call, len(got))
	newSkip := -1
	for i, g := range got {
		found := false
		for j, w := range want {
			if used[j] || !sameCall(w, g, withIDs, j == skip) {
				continue
			}
			used[j], out[i], found = true, w, true
			if j == skip {
				newSkip = i
			}
			break
		}
		if !found {
			return want, skip
		}
	}
	return out, newSkip
}

// sameCall compares two calls as the checks do (names, arguments as
// canonical JSON unless nameOnly, ids when withIDs).
func sameCall(a, b Call, withIDs, nameOnly bool) bool {
	skip := -1
	if nameOnly {
		skip = 0
	}
	return cmp.Equal(views([]Call{a}, withIDs, skip), views([]Call{b}, withIDs, skip))
}
