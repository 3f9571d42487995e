package conform

import (
	"time"
)

// A Result is one case's verdict and what led to it.
type Result struct {
	Case   Case
	Status Status
	// Details says in one line what the agent did.
	Details string
	// Diff is the first difference found in a request, -want +got.
	Diff string
	// Expected is set when the case is listed in the baseline.
	Expected bool
	// Vacuous is set on a case SKIPPED because its shape could not reach
	// the agent (vacuous.go).
	Vacuous bool
	// OtherProvider names the provider of an echo case the agent does not
	// target (-provider): its failure does not fail the run.
	OtherProvider string
	ExitCode      int
	TimedOut      bool
	Duration      time.Duration
	// Stdout, Stderr and Requests (the bodies as sent) are what -out keeps,
	// with the side requests' bodies (Side, never judged) and the requests
	// sent to no format's path (Unrouted).
	Stdout, Stderr []byte
	Requests       [][]byte
	Side           [][]byte
	Unrouted       []Unrouted
}

// Unrouted is a request on a path conform serves no format on: answered
// 404 (HEAD and GET: 200, and not kept), and kept for -out.
type Unrouted struct {
	Method, Path string
	Body         []byte
}
