package record

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/internal/racetest"
)

// countedUpstream is an upstream whose answers never end by themselves:
// "endless" ones send an event every millisecond, "stalled" ones one event
// and then nothing. Each answer ends when its request is cancelled (the
// proxy closes the connection) or, so that the test stops by itself on a
// proxy that never cancels, after 20,000 events or when the test ends. It
// counts its open connections and the answers still being written.
type countedUpstream struct {
	url     string
	conns   atomic.Int64 // connections not yet closed
	writing atomic.Int64 // handlers that have not returned
}

func newCountedUpstream(t *testing.T) *countedUpstream {
	t.Helper()
	u := &countedUpstream{}
	ended := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.writing.Add(1)
		defer u.writing.Add(-1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for n := range 20000 {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%d\"}}]}\n\n", n)
			w.(http.Flusher).Flush()
			wait := make(<-chan time.Time) // stalled: no timer, only the ends below
			if strings.HasSuffix(r.URL.Path, "/endless") {
				wait = time.After(time.Millisecond)
			}
			select {
			case <-r.Context().Done():
				return
			case <-ended:
				return
			case <-wait:
			}
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			u.conns.Add(1)
		case http.StateClosed, http.StateHijacked:
			u.conns.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(func() {
		close(ended)
		srv.Close()
	})
	u.url = srv.URL
	return u
}

// leaveAfterFirstEvent has n clients post to url at once, each read the
// answer's first event and then go, closing its connection.
func leaveAfterFirstEvent(t *testing.T, url string, n int) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	errs := make(chan error, n)
	for range n {
		go func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel() // the client goes
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"model":"m","stream":true}`))
			resp, err := client.Do(req)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			line, err := bufio.NewReader(resp.Body).ReadString('\n')
			if err == nil && !strings.HasPrefix(line, "data: ") {
				err = fmt.Errorf("first line %q", line)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// settles polls until the upstream has no connection open and no answer
// being written, as at rest, or fails once the deadline has passed.
func (u *countedUpstream) settles(t *testing.T, what string) {
	t.Helper()
	deadline := time.Now().Add(racetest.Slow * 10 * time.Second)
	for u.conns.Load() != 0 || u.writing.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the upstream still has %d connections open and %d answers being written, want 0 and 0 (at rest)", what, u.conns.Load(), u.writing.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// When its clients go, the proxy cancels their upstream requests: 30
// clients leave an endless answer and 30 a stalled one after its first
// event, and the upstream's connections and answers return to none, as
// at rest. (Read with the proxy's own context, they stayed open, the
// endless ones writing, until the proxy stopped.)
func TestProxyCancelsTheUpstreamWhenTheClientGoes(t *testing.T) {
	for _, shape := range []string{"endless", "stalled"} {
		t.Run(shape, func(t *testing.T) {
			u := newCountedUpstream(t)
			p, err := NewProxy(u.url+"/v1", "", &http.Transport{}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(p)
			defer srv.Close()
			defer p.Stop()
			if n, w := u.conns.Load(), u.writing.Load(); n != 0 || w != 0 {
				t.Fatalf("at rest: %d connections, %d answers", n, w)
			}
			leaveAfterFirstEvent(t, srv.URL+"/v1/"+shape, 30)
			u.settles(t, shape)
		})
	}
}

// An agent that closes its answer on the last event ([DONE]) often goes
// before the upstream's last bytes arrive: that answer is still read to
// its end and recorded. Here the upstream ends only once the proxy has
// seen the client go. (Cancelled at once, it was not recorded, and a chaos
// proxy's recordings lost such answers.)
func TestProxyRecordsAnAnswerClosedOnItsLastEvent(t *testing.T) {
	gone := make(chan struct{}) // the proxy saw the client go
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: [DONE]\n\n")
		w.(http.Flusher).Flush()
		<-gone
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, err := NewProxy(upstream.URL+"/v1", path, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		go func() {
			<-r.Context().Done()
			close(gone)
		}()
		p.ServeHTTP(w, r)
	}))
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "data: [DONE]\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	resp.Body.Close() // before the body's end: the connection closes
	client.CloseIdleConnections()
	srv.Close() // waits for the handler
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if p.Recorded() != 1 {
		t.Errorf("recorded %d exchanges, want 1", p.Recorded())
	}
}
