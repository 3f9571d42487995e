package conform

// The conclusion is the probe's last turn: text and no call, so an agent
// that read it has nothing left to ask. A sign that it did not read it
// even though it exits 0 (Qwen Code sent the same request five
// times on content_parts, then exited 0 with an empty answer); the other,
// an answer printed in the clean case and lost in this one, is the
// printed-answer rule's (garbage.go):

// checkConclusionTaken fails a case whose agent sent the streamed request
// that gets the conclusion more than once and then exited 0: conform
// answered each with a whole conclusion, so asking again means none was
// taken. Asking again without a stream is a fallback (fallback.go), judged
// there. A conclusion that calls the agent's completion tool is two turns
// (conversation.go): the call, then its text alone for the request that
// answers the call; each may be asked for once.
func checkConclusionTaken(o outcome) (verdict, bool) {
	last := max(o.turns-1, 1)      // a request past the last turn gets the last
	asked := make([][]int, last+1) // the requests asking for each turn
	for n, r := range o.requests {
		if firstAssistant(r.req) >= 0 && r.req.Streams {
			turn := min(r.req.assistants(), last)
			asked[turn] = append(asked[turn], n+1)
		}
	}
	var again []int
	for _, ns := range asked {
		if len(ns) >= 2 {
			again = ns
			break
		}
	}
	if len(again) < 2 || o.exitCode != 0 {
		return verdict{}, true
	}
	return fail("the agent asked for the conclusion %d times (%s) and then exited 0: it never took the answer it was given", len(again), numbered(again, "request")), false
}
