package cli

import (
	"fmt"
	"time"

	"github.com/agentvcr/agentvcr/agent"
)

// retryBackoffEnv sets the default of run's -retry-backoff: the scenarios
// set it to a millisecond, so that their unreachable and failing gateways
// are retried as a user's are, without waiting the 1.5 s of the default
// backoff for each run.
const retryBackoffEnv = "AGENTVCR_RETRY_BACKOFF"

// retryBackoff is the default of -retry-backoff: $AGENTVCR_RETRY_BACKOFF
// when set, else agent.DefaultRetryBackoff.
func retryBackoff(env Env) (time.Duration, error) {
	v := env.Getenv(retryBackoffEnv)
	if v == "" {
		return agent.DefaultRetryBackoff, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a duration above 0, such as 500ms", retryBackoffEnv, v)
	}
	return d, nil
}
