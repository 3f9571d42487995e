package conform

import (
	"bytes"
	"fmt"
)

// The conclusion is the probe's last turn: text and no call, so an agent
// that read it has nothing left to ask. Two signs that it did not read it
// even though it exits 0 (issue 19: Qwen Code sent the same request five
// times on content_parts, then exited 0 with an empty answer):

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

// checkConclusionPrinted fails every succeeding case, but the first, whose
// stdout lacks the conclusion's text when the first case's stdout has it:
// an agent that prints its answer lost this case's answer (probe mode
// only; results in report order).
func checkConclusionPrinted(results []Result) {
	if len(results) == 0 || results[0].Status != Success || !isFirstCase(results[0].Case.ID) ||
		!bytes.Contains(results[0].Stdout, []byte(probeConclusion)) {
		return
	}
	for i := 1; i < len(results); i++ {
		r := &results[i]
		if r.Status != Success || r.ExitCode != 0 || bytes.Contains(r.Stdout, []byte(probeConclusion)) {
			continue
		}
		r.Status = Failure
		r.Details = fmt.Sprintf("the agent exited 0 without printing the conclusion %q, which it prints in %s: its answer was lost", probeConclusion, results[0].Case.ID)
	}
}
