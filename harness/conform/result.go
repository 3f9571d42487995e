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
	ExitCode int
	TimedOut bool
	Duration time.Duration
	// Stdout, Stderr and Requests (the bodies as sent) are what -out keeps.
	Stdout, Stderr []byte
	Requests       [][]byte
}
