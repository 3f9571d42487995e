package quirk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// Transport applies q to every SSE response body that next returns,
// with seed+N for the N-th response: a live conversation (with the scripted
// gateway, say) seen through a broken gateway. Unlike a derived cassette, the
// conversation can go on after a non-benign quirk such as bad_args, because
// the gateway answers whatever the agent sends next. A response the quirk
// does not apply to passes unchanged.
func Transport(next http.RoundTripper, q Quirk, seed int64) http.RoundTripper {
	return &quirkTransport{next: next, q: q, seed: seed}
}

type quirkTransport struct {
	next http.RoundTripper
	q    Quirk
	seed int64

	mu sync.Mutex
	n  int64
}

func (t *quirkTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || !sse.IsEventStream(resp.Header.Get("Content-Type")) {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	seed := t.seed + t.n
	t.n++
	t.mu.Unlock()
	out, err := t.q.Apply(body, seed)
	if errors.Is(err, ErrNotApplicable) {
		out, err = body, nil // this response has nothing the quirk breaks
	}
	if err != nil {
		return nil, fmt.Errorf("quirk %s: %w", t.q.Name, err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Del("Content-Length")
	return resp, nil
}
