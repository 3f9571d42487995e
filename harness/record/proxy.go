package record

import (
	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/wire"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

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
	"time"
)

// hopHeaders are not forwarded by a proxy (RFC 9110 section 7.6.1), plus
// the ones the proxy recomputes: it streams, and the Content-Length of a
// stream is the transport's to set.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Proxy-Connection",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Host"}

// Accept-Encoding is not forwarded either: Go's transport then asks for
// gzip alone and inflates it, so an answer comes in an encoding the
// recording can scan. A Content-Encoding is passed on both ways with the
// bytes it describes: the upstream gets the client's body as sent, the
// client the upstream's answer as sent.
const acceptEncoding = "Accept-Encoding"

// A Proxy forwards every request to an upstream gateway with the
// client's own headers (its key included), streams each answer back to the
// client as it arrives, and records the exchange into a cassette through
// the same path as a recorded run: Stop redacts and scans it in memory and
// only then writes it over the file. Every credential a request carries
// (its auth headers by any common name, cassette.HeaderSecrets; its
// secret-named query parameters and the upstream URL's userinfo,
// cassette.URLSecrets) is a secret of the recording, and is never printed.
// It is an http.Handler.
type Proxy struct {
	upstream *url.URL // without its userinfo, which is basic auth
	user     *url.Userinfo
	shown    string // upstream as it may be printed
	real     http.RoundTripper
	cassette *cassette.Cassette
	log      io.Writer
	// ctx is the proxy's life: Stop cancels it, and with it every upstream
	// request still running. Each upstream request also ends when its
	// client goes (upstreamContext).
	ctx    context.Context
	cancel context.CancelFunc

	// Rewrite, when set, changes the streamed answers the client gets
	// (agentvcr proxy's quirks and faults, package chaos): it is called for
	// each 200 event-stream answer (IsEventStream: any case, any
	// parameters) with the request and its body, and returns nil to leave
	// that answer alone. An answer in a Content-Encoding the proxy knows
	// (gzip, deflate) is decoded for it and encoded again; one in another
	// (br, zstd, any other) cannot be rewritten: it passes as it came, with
	// a line on the log, and Unrewritten counts it. What is recorded is
	// what the client got.
	Rewrite func(r *http.Request, body []byte) Rewriter

	mu          sync.Mutex // serialises log lines
	recorded    atomic.Int64
	unrewritten atomic.Int64 // answers Rewrite would have changed, passed as they came
	order       exchangeOrder
	inflight    sync.WaitGroup // the requests being served
}

// A Rewriter changes one streamed answer on its way to the client: Write
// takes the upstream's bytes as they come and returns those to pass on,
// Close those left at the end. An error is logged once; the bytes returned
// with it are passed on all the same. quirk.Stream is one.
type Rewriter interface {
	Write(p []byte) ([]byte, error)
	Close() ([]byte, error)
}

// ender is a Rewriter with a last word, said once Close's bytes have
// gone out: a stall fault waits there for the client to go, a reset
// closes the connection.
type ender interface{ End() error }

// NewProxy opens path (".yaml" is added when missing) for
// recording, or records nothing when path is ""; requests go to upstream (a base URL such as
// https://gateway.example/v1) through transport (http.DefaultTransport
// when nil); its query (Azure's ?api-version=) is kept on every request,
// and its userinfo is sent as basic auth to a client that sends no
// Authorization. log receives one line per exchange it could not record
// (and one for a stale partial recording it removed).
func NewProxy(upstream, path string, transport http.RoundTripper, log io.Writer) (*Proxy, error) {
	return NewAppendingProxy(upstream, path, nil, transport, log)
}

// NewAppendingProxy is NewProxy recording into a cassette that holds
// existing already: Stop writes them first, then what it recorded
// (cassette.Options.Existing), so a recording adds to the file.
func NewAppendingProxy(upstream, path string, existing []*vcr.Interaction, transport http.RoundTripper, log io.Writer) (*Proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q is not an http(s) base URL such as https://api.openai.com/v1", ShownURL(upstream))
	}
	if transport == nil {
		transport = http.DefaultTransport
	}
	p := &Proxy{upstream: u, user: u.User, shown: ShownURL(upstream), real: transport, log: log}
	if path != "" {
		p.cassette, err = cassette.Open(path, cassette.ModeRecord, capturedTransport{}, cassette.Options{Log: log, Existing: existing})
		if err != nil {
			return nil, err
		}
		p.cassette.AddSecrets(cassette.URLSecrets(u)...)
	}
	p.upstream.User = nil
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return p, nil
}

// Recorded is how many exchanges have been recorded so far.
func (p *Proxy) Recorded() int { return int(p.recorded.Load()) }

// Unrewritten is how many answers Rewrite would have changed passed as
// they came, because their Content-Encoding cannot be decoded.
func (p *Proxy) Unrewritten() int { return int(p.unrewritten.Load()) }

// Stop saves the recording (see Cassette.Stop): ErrEmptyRecording when no
// exchange was recorded, ErrSecretInCassette when a secret survived. Call
// it once the server in front has shut down (or been closed): an upstream
// answer still being read is cut off and not recorded, and Stop waits for
// its handler to return, so that the exchanges that ended after it are.
func (p *Proxy) Stop() error {
	p.cancel()
	p.inflight.Wait() // cut off, each gives its slot back: what is in order is committed
	if p.cassette == nil {
		return nil
	}
	return p.cassette.Stop()
}

// target is the upstream URL of a request: the upstream base joined with
// the request path after its "/v1" (any prefix before it is the proxy's
// own), or, for a format whose paths begin with their own version (Gemini's
// /v1beta/..., Vertex AI's /v1/projects/...: agent.Format.APIPath), the
// upstream root joined with the path from that version on; then the
// upstream's query, then the request's.
func (p *Proxy) target(r *http.Request) string {
	path := r.URL.Path
	if api := wire.ForPath(path); api != nil && api.APIPath != nil {
		path, _ = api.APIPath(path)
	} else if i := strings.Index(path, "/v1/"); i >= 0 {
		path = path[i+len("/v1"):]
	} else if path == "/v1" {
		path = ""
	}
	u := *p.upstream
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	if u.RawQuery == "" {
		u.RawQuery = r.URL.RawQuery
	} else if r.URL.RawQuery != "" {
		u.RawQuery += "&" + r.URL.RawQuery
	}
	return u.String()
}

// ServeHTTP forwards one request and tees its answer.
// Exchanges are recorded in the order their requests arrived, not the
// order their answers ended: an agent that sends its next request as soon
// as it reads [DONE] may otherwise see that request recorded first.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isWebSocket(r) {
		p.websocket(w, r)
		return
	}
	p.inflight.Add(1)
	defer p.inflight.Done()
	slot := p.order.take()
	var rec *http.Request // the exchange to record; nil when there is none
	defer func() { p.order.done(slot, rec, p.commit) }()
	body, err := serve.ReadBody(w, r, serve.MaxRequestBody, serve.DefaultReadTimeout)
	if err != nil {
		status := http.StatusBadRequest
		switch {
		case errors.Is(err, serve.ErrBodyTooLarge):
			status = http.StatusRequestEntityTooLarge
		case errors.Is(err, serve.ErrBodyTimeout):
			status = http.StatusRequestTimeout
		}
		apierror.Write(w, nil, status, "invalid_request_error", "agentvcr record: cannot read the request body: "+err.Error())
		return
	}
	secrets := p.addSecrets(r)
	target := p.target(r)
	shown := secrets.RedactURL(target)
	ctx, cancel := p.upstreamContext(r)
	defer cancel()
	out, err := http.NewRequestWithContext(ctx, r.Method, target, bytes.NewReader(body))
	if err != nil {
		apierror.Write(w, nil, http.StatusBadRequest, "invalid_request_error", "agentvcr record: "+secrets.Scrub(err.Error()))
		return
	}
	out.Header = r.Header.Clone()
	for _, h := range append(hopHeaders, acceptEncoding) {
		out.Header.Del(h)
	}
	if p.user != nil && out.Header.Get("Authorization") == "" {
		pw, _ := p.user.Password()
		out.SetBasicAuth(p.user.Username(), pw)
	}

	sentAt := time.Now()
	resp, err := p.real.RoundTrip(out)
	if err != nil {
		p.logf("agentvcr record: %s %s: %s (not recorded)", r.Method, shown, secrets.Scrub(err.Error()))
		apierror.Write(w, nil, http.StatusBadGateway, "bad_gateway", fmt.Sprintf("agentvcr record: cannot reach the upstream %s: %s", shown, secrets.Scrub(err.Error())))
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	rw, codec := p.rewriterOf(r, body, resp, r.Method+" "+shown)
	w.WriteHeader(resp.StatusCode)
	got, reads, ok := p.tee(w, r.Context(), resp, rw, codec, sentAt, r.Method+" "+shown)
	if !ok || p.cassette == nil {
		return
	}
	// The recording holds bodies as text, scanned for secrets: each is
	// decoded from the encoding it travelled in, or not recorded.
	sent, err := decodeBody(body, r.Header.Get("Content-Encoding"), serve.MaxRequestBody)
	if err != nil {
		p.logf("agentvcr record: %s %s: the request body: %v (passed on, not recorded)", r.Method, shown, err)
		return
	}
	answer, err := decodeBody(got, resp.Header.Get("Content-Encoding"), agent.DefaultMaxBodyBytes)
	if err != nil {
		p.logf("agentvcr record: %s %s: the answer: %v (passed on, not recorded)", r.Method, shown, err)
		return
	}
	header := resp.Header.Clone()
	setEventTimes(header, eventTimes(resp.Header, got, reads))
	header.Del("Content-Encoding")
	captured := &http.Response{Status: resp.Status, StatusCode: resp.StatusCode, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header: header, Body: io.NopCloser(bytes.NewReader(answer)), ContentLength: int64(len(answer))}
	next, err := http.NewRequestWithContext(context.WithValue(context.Background(), capturedKey{}, captured), r.Method, target, bytes.NewReader(sent))
	if err != nil {
		p.logf("agentvcr record: %s %s: %s (not recorded)", r.Method, shown, secrets.Scrub(err.Error()))
		return
	}
	next.Header = out.Header
	next.Header.Del("Content-Encoding")
	rec = next
}

// drainGrace and drainBytes bound how long, and how many bytes more, the
// proxy reads an answer whose client went away: an agent that closes the
// answer as soon as it reads its last event ([DONE], message_stop) often
// goes before the upstream's last bytes arrive, and that answer is still
// read to its end and recorded; a stalled or endless one is cancelled.
const (
	drainGrace = time.Second
	drainBytes = 64 << 10
)

// upstreamContext is the context of r's upstream request: it ends
// drainGrace after the client goes (r's context: net/http cancels it once
// the connection closes), or when Stop is called, so that an upstream
// never goes on generating, and billing, an answer nobody reads.
func (p *Proxy) upstreamContext(r *http.Request) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	stopAtStop := context.AfterFunc(p.ctx, cancel)
	stopWhenGone := context.AfterFunc(r.Context(), func() {
		t := time.NewTimer(drainGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-ctx.Done():
		}
	})
	return ctx, func() {
		stopAtStop()
		stopWhenGone()
		cancel()
	}
}

// commit records one exchange; exchangeOrder calls it in arrival order.
func (p *Proxy) commit(rec *http.Request) {
	saved, err := p.cassette.Transport().RoundTrip(rec)
	if err != nil {
		p.logf("agentvcr record: %s %s: %v (not recorded)", rec.Method, ShownURL(rec.URL.String()), err)
		return
	}
	saved.Body.Close()
	p.recorded.Add(1)
}

// addSecrets makes every credential the request carries (its headers,
// its query and the upstream's userinfo) secrets of the recording, and
// returns them all, to scrub what the proxy prints.
func (p *Proxy) addSecrets(r *http.Request) cassette.Secrets {
	secrets := append(cassette.HeaderSecrets(r.Header), cassette.URLSecrets(r.URL)...)
	if p.cassette != nil {
		p.cassette.AddSecrets(secrets...)
	}
	if p.user != nil {
		secrets = append(secrets, cassette.URLSecrets(&url.URL{User: p.user})...)
	}
	return secrets
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
