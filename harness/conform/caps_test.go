package conform

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// An agent that floods its case is stopped at the case's cap, keeps only
// what came before it, and fails with a verdict that names the cap.
func TestFloodingAgentHitsTheCaseCap(t *testing.T) {
	t.Parallel()
	only, _ := SelectCases(Cases(), []string{"clean"})
	for _, tt := range []struct {
		size     int
		requests int // kept
		details  string
	}{
		{100 << 10, 5, "the agent sent more than 5 requests in this case (conform keeps at most 5 a case): killed"},
		{300 << 10, 3, "the agent's requests in this case passed 1 MiB (conform keeps at most 1 MiB of requests a case): killed"},
	} {
		t.Run(strconv.Itoa(tt.size), func(t *testing.T) {
			cmd := hostileCommand(t, hostileFlood, t.TempDir(), floodEnv+"="+strconv.Itoa(tt.size))
			results, err := Run(context.Background(), Options{Folder: agentFolder, Command: cmd, Cases: only, Timeout: slow * 20 * time.Second,
				limits: caseLimits{requests: 5, bytes: 1 << 20}})
			if err != nil {
				t.Fatal(err)
			}
			r := results[0]
			if r.Status != Failure || r.Details != tt.details || len(r.Requests) != tt.requests || r.TimedOut {
				t.Errorf("%s %q, %d requests kept, timed out %v\nwant FAILURE %q, %d requests", r.Status, r.Details, len(r.Requests), r.TimedOut, tt.details, tt.requests)
			}
		})
	}
}
