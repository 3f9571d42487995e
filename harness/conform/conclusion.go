package conform

// The conclusion is the probe's last turn: text and no call, so an agent
// that read it has nothing left to ask. A sign that it did not read it
// even though it exits 0 (issue 19: Qwen Code sent the same request five
// times on content_parts, then exited 0 with an empty answer); the other,
// an answer printed in the clean case and lost in this one, is the
// printed-answer rule's (garbage.go):

// checkConclusionTaken fails a case whose agent sent the streamed request
// that gets the conclusion more than once and then exited 0: conform
// answered each with a whole conclusion, so asking again means none was
// taken. Asking again without a stream is a fallback (fallback.go), judged
// there.
func checkConclusionTaken(o outcome) (verdict, bool) {
	var again []int
	for n, r := range o.requests {
		if firstAssistant(r.req) >= 0 && r.req.Streams {
			again = append(again, n+1)
		}
	}
	if len(again) < 2 || o.exitCode != 0 {
		return verdict{}, true
	}
	return fail("the agent asked for the conclusion %d times (%s) and then exited 0: it never took the answer it was given", len(again), numbered(again, "request")), false
}
