package conform

import (
	"fmt"

	"github.com/google/go-cmp/cmp"
)

// The results rule: on a benign case the agent ran the same tools with the
// same arguments in the same folder as on the clean stream, so each call's
// tool result must be the clean run's for that call (normalise.go says
// what may differ). Re-sending the right calls is not enough: an SDK that
// could not parse a call's arguments (cumulative pieces glued into
// {"a"}{"a"}) may send the call back as merged and answer it with its own
// "JSON parsing failed" result, and no tool ran. The rule reads the first
// request that answers the tool turn; a call whose arguments are not
// compared (bad_args' first) is left out, and so is a call the clean run
// did not make.

// checkResults fails a case whose agent answered a call of the tool turn
// with another result than the clean run's; ok is true when every result
// matches (or there is no clean run to compare with).
func checkResults(o outcome) (verdict, bool) {
	ref := o.clean
	if ref == nil {
		return verdict{}, true
	}
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		calls := r.req.Messages[a].Calls
		ids := callIDs(calls)
		for i, c := range calls {
			want, known := ref.results[callKey(c)]
			got, answered := answerOf(r.req, a, c.ID)
			if !known || !answered {
				continue
			}
			if got = ref.norm.text(got, ids); got != want {
				return verdict{status: Failure,
					details: fmt.Sprintf("request %d: call %d (%s %s) is re-sent as merged, but its tool result is not the one the clean run got for it: the tool did not run as it did on the clean stream (result %q)",
						n+1, i+1, c.Name, cut200(c.Arguments), oneLine(got)),
					diff: cmp.Diff(want, got)}, false
			}
		}
		return verdict{}, true // later requests carry the same results
	}
	return verdict{}, true
}
