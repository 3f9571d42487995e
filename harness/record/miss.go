package record

import (
	"bytes"
	"crypto/sha256"
	"io"
	"net/http"
	"sync"

	"github.com/agentvcr/agentvcr/harness/serve"
)

// A MissHandler answers the requests a served cassette misses (serve's
// Route.Miss) through a recording Proxy: forwarded to the upstream, the
// answer streamed back as it arrives and recorded, through the same path
// record takes (one writer, one redaction and scan). A request is
// forwarded once: two clients that miss the same request at once (the same
// method, path and body) wait on one exchange, the second answered with
// its bytes when it ends, and a request recorded earlier in the run is
// answered from that recording, not forwarded again. What answered goes
// in serve.FromHeader, for the journal.
type MissHandler struct {
	Proxy *Proxy

	mu      sync.Mutex
	flights map[[sha256.Size]byte]*flight
	waiters int // requests that waited on another's flight, so far
}

// A flight is one forwarded exchange, and what it sent once it ended.
type flight struct {
	done   chan struct{}
	status int
	header http.Header
	body   []byte
	ok     bool // it ended with an answer worth giving again (not cut off)
}

func (m *MissHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body) // serve read it within its bounds already
	if err != nil {
		http.Error(w, "agentvcr serve: the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	key := sha256.Sum256(append([]byte(r.Method+" "+r.URL.Path+"\n"), body...))
	m.mu.Lock()
	if m.flights == nil {
		m.flights = map[[sha256.Size]byte]*flight{}
	}
	f, seen := m.flights[key]
	if !seen {
		f = &flight{done: make(chan struct{})}
		m.flights[key] = f
	}
	m.mu.Unlock()
	if seen {
		m.mu.Lock()
		m.waiters++
		m.mu.Unlock()
		select {
		case <-f.done:
		case <-r.Context().Done():
			return
		}
		if f.ok {
			for k, v := range f.header {
				w.Header()[k] = v
			}
			w.Header().Set(serve.FromHeader, "this run's recording (the upstream answered it once)")
			w.WriteHeader(f.status)
			w.Write(f.body)
			return
		}
		// the first one broke off: this one goes upstream itself
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	tee := &serve.StatusWriter{ResponseWriter: w, Keep: true}
	w.Header().Set(serve.FromHeader, "the upstream, recorded")
	func() {
		defer func() {
			if v := recover(); v != nil {
				m.forget(key, f)
				panic(v) // a cut answer aborts the handler, as it does in the proxy
			}
		}()
		m.Proxy.ServeHTTP(tee, r)
	}()
	if seen || tee.Status == 0 {
		if !seen {
			m.forget(key, f)
		}
		return
	}
	f.status, f.header, f.body, f.ok = tee.Status, tee.Header().Clone(), tee.Body.Bytes(), true
	close(f.done)
}

// forget drops a flight that broke off, so that the next miss of the
// request goes upstream again, and frees those waiting on it.
func (m *MissHandler) forget(key [sha256.Size]byte, f *flight) {
	m.mu.Lock()
	if m.flights[key] == f {
		delete(m.flights, key)
	}
	m.mu.Unlock()
	select {
	case <-f.done:
	default:
		close(f.done)
	}
}
