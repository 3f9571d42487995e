package record

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentvcr/agentvcr/harness/serve"
)

// TestMissHandlerForwardsOnce: two clients that miss the same request at
// once are answered by one upstream exchange, recorded once; a later miss
// of it is answered from this run's recording; another request goes up.
func TestMissHandlerForwardsOnce(t *testing.T) {
	var upstreamHits atomic.Int64
	both := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamHits.Add(1)
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"first"`) {
			<-both // the second client has missed it too before this answers
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, err := NewProxy(upstream.URL+"/v1", path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &MissHandler{Proxy: p}
	var waiting sync.WaitGroup
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.ServeHTTP(w, r)
	}))
	defer srv.Close()
	post := func(body string) (string, string) {
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Error(err)
			return "", ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b), resp.Header.Get(serve.FromHeader)
	}
	first := `{"model":"m","messages":[{"role":"user","content":"first"}],"stream":true}`
	var bodies, froms [2]string
	for i := range 2 {
		waiting.Add(1)
		go func() {
			defer waiting.Done()
			bodies[i], froms[i] = post(first)
		}()
	}
	// both are in: one at the upstream, one waiting on it
	for m.waited() < 1 {
		runtime.Gosched()
	}
	close(both)
	waiting.Wait()
	if upstreamHits.Load() != 1 || bodies[0] != bodies[1] || !strings.Contains(bodies[0], `"content":"hi"`) {
		t.Errorf("%d upstream requests, bodies %q; want 1 and the same answer twice", upstreamHits.Load(), bodies)
	}
	if got := froms[0] + " / " + froms[1]; got != "the upstream, recorded / this run's recording (the upstream answered it once)" &&
		got != "this run's recording (the upstream answered it once) / the upstream, recorded" {
		t.Errorf("from: %s", got)
	}
	if _, from := post(first); from != "this run's recording (the upstream answered it once)" || upstreamHits.Load() != 1 {
		t.Errorf("a later miss: from %q, %d upstream requests", from, upstreamHits.Load())
	}
	post(`{"model":"m","messages":[{"role":"user","content":"second"}],"stream":true}`)
	if upstreamHits.Load() != 2 {
		t.Errorf("another request: %d upstream requests, want 2", upstreamHits.Load())
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "- request:"); n != 2 {
		t.Errorf("%d interactions recorded, want 2 (the first request once):\n%s", n, data)
	}
}

// waited is how many requests have waited on another's flight.
func (m *MissHandler) waited() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.waiters
}
