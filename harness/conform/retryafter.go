package conform

import (
	"strconv"
	"time"
)

// defaultRetryAfter is the Retry-After of fault_429.
const defaultRetryAfter = time.Second

// seconds is d as a Retry-After value: whole seconds ("1"), or decimal
// seconds ("0.2") for the shorter waits tests set (Options.retryAfter).
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}
