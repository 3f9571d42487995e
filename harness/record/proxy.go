package record

import (
	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/serve"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
)

// hopHeaders are not forwarded by a proxy (RFC 9110 section 7.6.1), plus
// the ones the proxy recomputes: it streams, and the transport decompresses.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Proxy-Connection",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Accept-Encoding", "Content-Encoding", "Host"}

// A Proxy forwards every request to an upstream gateway with the
// client's own headers (its key included), streams each answer back to the
// client as it arrives, and records the exchange into a cassette through
// the same path as a recorded run: Stop saves it redacted, scans it for
// secrets and only then moves it over the file. The credentials of every
// auth header it sees (HeaderSecrets: Authorization, X-Api-Key, Api-Key
// and more) are secrets of the recording. It is an http.Handler.
type Proxy struct {
	upstream *url.URL
	real     http.RoundTripper
	cassette *cassette.Cassette
	log      io.Writer
	// ctx carries the upstream requests: not the client's, so that an
	// answer the client stops reading early (after [DONE]) is still read
	// to its end and recorded; Stop cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex // serialises log lines
	recorded atomic.Int64
	order    exchangeOrder
	inflight sync.WaitGroup // the requests being served
}

// NewProxy opens path (".yaml" is added when missing) for
// recording; requests go to upstream (a base URL such as
// https://gateway.example/v1) through transport (http.DefaultTransport
// when nil). log receives one line per exchange it could not record.
func NewProxy(upstream, path string, transport http.RoundTripper, log io.Writer) (*Proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q is not an http(s) base URL such as https://api.openai.com/v1", upstream)
	}
	if transport == nil {
		transport = http.DefaultTransport
	}
	p := &Proxy{upstream: u, real: transport, log: log}
	p.cassette, err = cassette.Open(path, cassette.ModeRecord, capturedTransport{}, cassette.Options{})
	if err != nil {
		return nil, err
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return p, nil
}

// Recorded is how many exchanges have been recorded so far.
func (p *Proxy) Recorded() int { return int(p.recorded.Load()) }

// Stop saves the recording (see Cassette.Stop): ErrEmptyRecording when no
// exchange was recorded, ErrSecretInCassette when a secret survived. Call
// it once the server in front has shut down (or been closed): an upstream
// answer still being read is cut off and not recorded, and Stop waits for
// its handler to return, so that the exchanges that ended after it are.
func (p *Proxy) Stop() error {
	p.cancel()
	p.inflight.Wait() // cut off, each gives its slot back: what is in order is committed
	return p.cassette.Stop()
}

// target is the upstream URL of a request: the upstream base joined with
// the request path after its "/v1" (any prefix before it is the proxy's own).
func (p *Proxy) target(r *http.Request) string {
	path := r.URL.Path
	if i := strings.Index(path, "/v1/"); i >= 0 {
		path = path[i+len("/v1"):]
	} else if path == "/v1" {
		path = ""
	}
	u := *p.upstream
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	u.RawQuery = r.URL.RawQuery
	return u.String()
}

// ServeHTTP forwards one request and tees its answer.
// Exchanges are recorded in the order their requests arrived, not the
// order their answers ended: an agent that sends its next request as soon
// as it reads [DONE] may otherwise see that request recorded first.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.inflight.Add(1)
	defer p.inflight.Done()
	slot := p.order.take()
	var rec *http.Request // the exchange to record; nil when there is none
	defer func() { p.order.done(slot, rec, p.commit) }()
	body, err := serve.ReadBody(r)
	if err != nil {
		apierror.Write(w, nil, http.StatusBadRequest, "invalid_request_error", "agentvcr record: cannot read the request body: "+err.Error())
		return
	}
	target := p.target(r)
	out, err := http.NewRequestWithContext(p.ctx, r.Method, target, bytes.NewReader(body))
	if err != nil {
		apierror.Write(w, nil, http.StatusBadRequest, "invalid_request_error", "agentvcr record: "+err.Error())
		return
	}
	out.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	p.addSecrets(r.Header)
	p.cassette.AddSecrets(cassette.QuerySecrets(r.URL)...)

	resp, err := p.real.RoundTrip(out)
	if err != nil {
		p.logf("agentvcr record: %s %s: %v (not recorded)", r.Method, target, err)
		apierror.Write(w, nil, http.StatusBadGateway, "bad_gateway", fmt.Sprintf("agentvcr record: cannot reach the upstream %s: %v", target, err))
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	w.WriteHeader(resp.StatusCode)
	flusher, _ := w.(http.Flusher)
	var got bytes.Buffer // what is recorded: at most agent.DefaultMaxBodyBytes
	tooLong := false
	buf := make([]byte, 32<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if got.Len()+n > agent.DefaultMaxBodyBytes {
				tooLong = true
			} else {
				got.Write(buf[:n])
			}
			w.Write(buf[:n]) // a client that went away still lets the upstream finish
			if flusher != nil {
				flusher.Flush()
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			p.logf("agentvcr record: %s %s: the upstream answer broke off: %v (not recorded)", r.Method, target, rerr)
			return
		}
	}
	if tooLong {
		p.logf("agentvcr record: %s %s: the answer is over %d bytes (passed on, not recorded)", r.Method, target, agent.DefaultMaxBodyBytes)
		return
	}
	captured := &http.Response{Status: resp.Status, StatusCode: resp.StatusCode, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header: resp.Header.Clone(), Body: io.NopCloser(bytes.NewReader(got.Bytes())), ContentLength: int64(got.Len())}
	next, err := http.NewRequestWithContext(context.WithValue(context.Background(), capturedKey{}, captured), r.Method, target, bytes.NewReader(body))
	if err != nil {
		p.logf("agentvcr record: %s %s: %v (not recorded)", r.Method, target, err)
		return
	}
	next.Header = out.Header
	rec = next
}

// commit records one exchange; exchangeOrder calls it in arrival order.
func (p *Proxy) commit(rec *http.Request) {
	saved, err := p.cassette.Transport().RoundTrip(rec)
	if err != nil {
		p.logf("agentvcr record: %s %s: %v (not recorded)", rec.Method, rec.URL, err)
		return
	}
	saved.Body.Close()
	p.recorded.Add(1)
}

// addSecrets makes the credentials of the request's auth headers
// (HeaderSecrets) secrets of the recording.
func (p *Proxy) addSecrets(h http.Header) {
	p.cassette.AddSecrets(cassette.HeaderSecrets(h)...)
}

func (p *Proxy) logf(format string, args ...any) {
	if p.log == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.log, format+"\n", args...)
}

type capturedKey struct{}

// capturedTransport is the recording cassette's "real" transport: it hands
// go-vcr the answer the proxy already streamed to its client, and drains
// the request body so that go-vcr records it.
type capturedTransport struct{}

func (capturedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	resp, ok := r.Context().Value(capturedKey{}).(*http.Response)
	if !ok {
		return nil, errors.New("no captured answer for this request")
	}
	resp.Request = r
	return resp, nil
}
