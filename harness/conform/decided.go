package conform

import (
	"net/http"

	"github.com/agentvcr/agentvcr/harness/serve"
)

// A benign case is decided by the first request that re-sends the tool
// turn wrong: nothing the agent does after it changes the verdict. conform
// then answers that request 400 and stops the agent at once, rather than
// feed a loop (agents that took several_choices' decoy sent 268
// to 2,840 requests until -timeout).

// decided reports whether req, the n-th request of the case, fixes a
// benign case's verdict as a failure. st.mu is held.
func (st *caseState) decided(req Request, n int) bool {
	if st.recorded || st.conv == nil || st.conv.want == nil {
		return false
	}
	switch st.c.Expect {
	case ExpectSame, ExpectBadArgs, ExpectEcho, ExpectFirstOrBroken, ExpectSameOrBroken:
	default:
		return false
	}
	a := firstAssistant(req)
	if a < 0 {
		return false
	}
	_, ok := checkAnswered(st.c, st.conv.want, req, a, n)
	return !ok
}

// stopDecided answers a request that decided its case and stops the agent.
// st.mu is held.
func (st *caseState) stopDecided() serve.Reply {
	st.stopped = true
	if st.stop != nil {
		st.stop()
	}
	return errorReply(http.StatusBadRequest, "conform: this request decides the case (it does not re-send the merged tool turn); the agent is stopped")
}
