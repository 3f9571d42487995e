package conform

import (
	"cmp"
	"slices"
)

// The cases after the first start longest wait first: a stall case waits
// for the agent's own give-up on a silent stream (240 to 300 s in real
// agents), a fault case for its retries and their backoff, a broken stream
// for the retries an agent makes before it gives up; the others take
// seconds. Started first, the long ones run beside all the short ones, and
// with -p 2 or more a run takes about as long as its slowest case rather
// than that case after all the others. Results keep the catalog's order.

// waitRank is how long a case may wait, in order: lower starts earlier.
func waitRank(c Case) int {
	switch {
	case c.Fault == FaultStall:
		return 0
	case c.Fault != "":
		return 1
	case c.Expect == ExpectBroken || c.Expect == ExpectFirstOrBroken || c.Expect == ExpectSameOrBroken:
		return 2
	}
	return 3
}

// longestFirst orders the indexes of cases by waitRank, keeping the
// catalog's order within a rank.
func longestFirst(cases []Case, idx []int) []int {
	out := slices.Clone(idx)
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(waitRank(cases[a]), waitRank(cases[b])) })
	return out
}
