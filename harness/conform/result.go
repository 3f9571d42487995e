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
	// Frames are, per request, the response.create frame it was sent as
	// over a WebSocket (Requests holds the HTTP body it stands for, the
	// connection's held context included); nil for a request over HTTP.
	Frames   [][]byte
	Side     [][]byte
	Unrouted []Unrouted
	// Answers are what conform answered the judged requests, in order:
	// what -out keeps as answer-N and the HTML report shows.
	Answers []Answer
}

// An Answer is what conform answered one judged request of a case.
type Answer struct {
	Request int // the request's number, from 1 (Result.Requests[Request-1])
	// Whole: Served is a whole turn as JSON, the answer to a request that
	// asked for no stream.
	Whole  bool
	Served []byte // the body as sent: the stream (or a whole turn, to a request asking for no stream)
	// Clean is the turn the case's transform changed, as the clean case
	// serves it; nil when the transform changed nothing.
	Clean []byte
	Fault string // the fault served instead, when one was (Fault429, ...)
	// FaultAfter is how many events of Served a stall or a reset sent
	// before the stream stopped or the connection closed.
	FaultAfter int
	Status     int // the HTTP error status served instead of Served, 0 for none
}

// Unrouted is a request on a path conform serves no format on: answered
// 404 (HEAD and GET: 200, and not kept), and kept for -out.
type Unrouted struct {
	Method, Path string
	Body         []byte
}
