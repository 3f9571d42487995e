package agent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
)

// RetryBackoff replaces the first wait when the answer names none, and
// doubles like it; a Retry-After the answer names still wins.
func TestLiveRetryBackoff(t *testing.T) {
	for _, tt := range []struct {
		reason   string
		headers  http.Header
		min, max []time.Duration
	}{
		{"no Retry-After: 10 ms, then 20 ms, less jitter", nil,
			[]time.Duration{7500 * time.Microsecond, 15 * time.Millisecond}, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}},
		{"Retry-After-Ms wins", http.Header{"Retry-After-Ms": {"250"}},
			[]time.Duration{250 * time.Millisecond, 250 * time.Millisecond}, []time.Duration{250 * time.Millisecond, 250 * time.Millisecond}},
	} {
		t.Run(tt.reason, func(t *testing.T) {
			srv, _ := scriptedStatuses(t, tt.headers, 503, 503)
			w := &waits{}
			c := liveClient(srv.URL, 2, w)
			c.HTTPClient.Transport.(*agent.LiveTransport).RetryBackoff = 10 * time.Millisecond
			if turn, err := c.Complete(guard(t), nil, nil); err != nil || turn.Text != "ok" {
				t.Fatalf("turn %+v, err %v; want the stream merged", turn, err)
			}
			got := w.all()
			if len(got) != 2 {
				t.Fatalf("waits %v, want 2", got)
			}
			for i, d := range got {
				if d < tt.min[i] || d > tt.max[i] {
					t.Errorf("wait %d is %v, want within [%v, %v]", i+1, d, tt.min[i], tt.max[i])
				}
			}
		})
	}
}
