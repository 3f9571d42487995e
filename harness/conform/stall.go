package conform

import (
	"fmt"
	"time"
)

// DefaultStallTimeout is how long a stall case (fault_stall) lets the agent
// run: above the 240 to 300 s after which Claude Code, opencode and Qwen
// Code give up on a silent stream, so that their verdict is
// what they did, not conform's patience.
const DefaultStallTimeout = 6 * time.Minute

// gaveUp says when the agent gave up on the stalled first stream: at its
// second request, or at its end when it sent none: "gave up after 241 s".
func gaveUp(o outcome) string {
	end := o.elapsed
	if len(o.requests) > 1 {
		end = o.requests[1].at
	}
	return fmt.Sprintf("gave up on the stalled stream after %s", roundDuration(end-o.requests[0].at))
}

// roundDuration is d in whole seconds from 10 s on, in milliseconds below.
func roundDuration(d time.Duration) time.Duration {
	if d >= 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
