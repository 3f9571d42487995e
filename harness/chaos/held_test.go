package chaos_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/chaos"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/internal/racetest"
)

// lockedLog is a log the proxy writes from its handlers while a test reads.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// The start of an answer whose one call's arguments never end.
const (
	roleChunk  = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
	callStart  = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"\"}}]}}]}\n\n"
	argsPiece  = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}}]}}]}\n\n"
	endlessMax = 16 << 20 // what the endless upstream sends at most, so that the test stops by itself
)

// endlessUpstream sends roleChunk, callStart, then argument pieces (a
// millisecond apart when paced) until its request is cancelled, the test
// ends, or endlessMax bytes went out. It counts its open connections and
// the answers still being written.
type endlessUpstream struct {
	url            string
	conns, writing atomic.Int64
}

func newEndlessUpstream(t *testing.T, paced bool) *endlessUpstream {
	t.Helper()
	u := &endlessUpstream{}
	ended := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.writing.Add(1)
		defer u.writing.Add(-1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, roleChunk+callStart)
		for sent := 0; sent < endlessMax; sent += len(argsPiece) {
			if _, err := io.WriteString(w, argsPiece); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			var wait <-chan time.Time // unpaced: no wait, only the ends below
			if paced {
				wait = time.After(time.Millisecond)
			} else {
				closed := make(chan time.Time)
				close(closed)
				wait = closed
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

// settles polls until the upstream has no connection open and no answer
// being written, as at rest, or fails once the deadline has passed.
func (u *endlessUpstream) settles(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(racetest.Slow * 10 * time.Second)
	for u.conns.Load() != 0 || u.writing.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the upstream still has %d connections open and %d answers being written, want 0 and 0 (at rest)", u.conns.Load(), u.writing.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An answer whose call arguments never end, under a quirk that holds from
// the first call piece: the quirk holds at most -max-held (1 MiB here),
// then the client reads a cut stream (an unexpected EOF after the events
// before the call), the proxy's log says why, and the upstream request is
// cancelled. (Unbounded, the proxy held all the upstream sent: 16 MiB
// here, past 1.2 GiB against a real endless upstream.)
func TestProxyCutsAnAnswerPastMaxHeld(t *testing.T) {
	const maxHeld = 1 << 20
	u := newEndlessUpstream(t, false)
	q, _ := quirk.ByName("args_split_escapes")
	c := &chaos.Chaos{Quirk: &q, Seed: 1, MaxHeld: maxHeld}
	var log lockedLog
	p, err := record.NewProxy(u.url+"/v1", "", &http.Transport{}, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c.Handler(p))
	defer srv.Close()
	defer p.Stop()

	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the client read %d bytes and %v, want a cut stream (unexpected EOF)", len(got), err)
	}
	if string(got) != roleChunk {
		t.Errorf("the client got %q, want the events before the call: %q", got, roleChunk)
	}
	if most := c.MostHeld(); most > maxHeld || most < maxHeld-64<<10 {
		t.Errorf("the quirk held at most %d bytes, want at most %d and within a read of it", most, maxHeld)
	}
	if c.Cut() != 1 {
		t.Errorf("Cut() = %d, want 1", c.Cut())
	}
	line := log.String()
	prefix := "agentvcr: POST " + u.url + "/v1/chat/completions: quirk args_split_escapes: the quirk would hold more of the answer than its limit: it holds "
	suffix := ", the limit is 1048576 (agentvcr proxy -max-held): the answer is cut off, as a broken stream is\n"
	if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, suffix) || strings.Count(line, "\n") != 1 {
		t.Errorf("log:\n%s\nwant one line:\n%s...%s", line, prefix, suffix)
	}
	u.settles(t)
}

// The chaos proxy cancels its upstream requests when its clients go: 20
// clients leave a quirked endless answer, and 20 an answer a stall fault
// holds, after their first event; the upstream's connections and answers
// return to none, as at rest.
func TestChaosProxyCancelsTheUpstreamWhenTheClientGoes(t *testing.T) {
	crlf, _ := quirk.ByName("crlf")
	stall, err := serve.ParseFault("stall:1")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*chaos.Chaos{"crlf": {Quirk: &crlf}, "stall": {Fault: stall}} {
		t.Run(name, func(t *testing.T) {
			u := newEndlessUpstream(t, true)
			p, err := record.NewProxy(u.url+"/v1", "", &http.Transport{}, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(c.Handler(p))
			defer srv.Close()
			defer p.Stop()
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			var wg sync.WaitGroup
			errs := make(chan error, 20)
			for range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel() // the client goes
					req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m","stream":true}`))
					resp, err := client.Do(req)
					if err != nil {
						errs <- err
						return
					}
					defer resp.Body.Close()
					first := make([]byte, 6)
					if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "data: " {
						errs <- fmt.Errorf("first bytes %q, %v", first, err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			u.settles(t)
		})
	}
}
