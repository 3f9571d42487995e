package conform

import (
	"errors"
	"fmt"
)

// caseLimits bound what one case keeps of the agent's requests: their
// number and their bytes in all. conform keeps a case's requests until the
// run ends (the checks read them, -out writes them), so an agent posting
// in a loop would otherwise grow conform's memory without bound.
type caseLimits struct{ requests, bytes int }

// defaultLimits are far above what an agent sends in a case (the probe's
// conversation takes three requests, a recording one per turn), and keep
// a whole catalog under a few hundred MiB whatever the agent does.
var defaultLimits = caseLimits{requests: 100, bytes: 32 << 20}

// ErrCaseCap marks a case whose agent sent more than its case keeps: the
// agent is killed at once and the case fails.
var ErrCaseCap = errors.New("conform keeps at most")

// admit counts a request of n bytes against the case's limits, and reports
// whether it is kept; the first one over them sets st.over and stops the
// agent. st.mu is held.
func (st *caseState) admit(lim caseLimits, n int) bool {
	if st.over != nil {
		return false
	}
	switch {
	case len(st.bodies)+len(st.sides) >= lim.requests:
		st.over = fmt.Errorf("the agent sent more than %d requests in this case (%w %d a case)", lim.requests, ErrCaseCap, lim.requests)
	case st.keptBytes+n > lim.bytes:
		st.over = fmt.Errorf("the agent's requests in this case passed %s (%w %s of requests a case)", mib(lim.bytes), ErrCaseCap, mib(lim.bytes))
	default:
		st.keptBytes += n
		return true
	}
	if st.stop != nil {
		st.stop()
	}
	return false
}

// mib is a size in whole MiB, or in bytes below one.
func mib(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
