package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/responsesws"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// isWebSocket reports a WebSocket handshake on the Responses path.
func isWebSocket(r *http.Request) bool {
	return serve.IsUpgrade(r) && responses.Format.Serves(r.URL.Path)
}

// wsHandshakeHeaders are the handshake's own headers, which the dial to
// the upstream makes afresh.
var wsHandshakeHeaders = []string{"Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions", "Sec-Websocket-Accept"}

// websocket relays a WebSocket on the Responses path: it dials the
// upstream with the client's headers (its key among the recording's
// secrets), and only then accepts the client, so that an upstream that
// refuses (a 426, a 404) refuses the client with its own status and body.
// Frames pass both ways as they come; the upstream's, for each cycle,
// through Rewrite (as the SSE events they stand for, frame by frame), and
// each cycle that ends (its response's end, or an error frame) is recorded
// as the exchange its frame stands for, in the order the frames arrived.
func (p *Proxy) websocket(w http.ResponseWriter, r *http.Request) {
	p.inflight.Add(1)
	defer p.inflight.Done()
	secrets := p.addSecrets(r)
	target := p.target(r)
	shown := secrets.RedactURL(target)
	header := r.Header.Clone()
	for _, h := range append(append(hopHeaders, acceptEncoding), wsHandshakeHeaders...) {
		header.Del(h)
	}
	if p.user != nil && header.Get("Authorization") == "" {
		pw, _ := p.user.Password()
		(&http.Request{Header: header}).SetBasicAuth(p.user.Username(), pw) // sets it in header
	}
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	up, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(target, "http"), &websocket.DialOptions{HTTPHeader: header, HTTPClient: &http.Client{Transport: p.real}})
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			p.logf("agentvcr record: GET %s: the upstream refused the WebSocket with %d (passed on, not recorded)", shown, resp.StatusCode)
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			for _, h := range hopHeaders {
				w.Header().Del(h)
			}
			w.WriteHeader(resp.StatusCode)
			if resp.Body != nil {
				io.Copy(w, io.LimitReader(resp.Body, 1<<20))
			}
			return
		}
		p.logf("agentvcr record: GET %s: %s (not recorded)", shown, secrets.Scrub(err.Error()))
		apierror.Write(w, responses.Format, http.StatusBadGateway, "bad_gateway", fmt.Sprintf("agentvcr record: cannot open a WebSocket to the upstream %s: %s", shown, secrets.Scrub(err.Error())))
		return
	}
	defer up.CloseNow()
	up.SetReadLimit(agent.DefaultMaxBodyBytes)
	client, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		p.logf("agentvcr record: GET %s: the client's handshake failed: %v", shown, err)
		return
	}
	defer client.CloseNow()
	client.SetReadLimit(serve.MaxRequestBody)
	rl := &wsRelay{p: p, ctx: ctx, client: client, up: up, target: target, shown: shown, header: header}
	go rl.fromClient()
	rl.fromUpstream()
	cancel()
	rl.mu.Lock()
	for _, c := range rl.cycles { // cycles the connection's end cut: nothing to record
		p.order.done(c.slot, nil, p.commit)
	}
	rl.cycles = nil
	rl.mu.Unlock()
}

// A wsRelay is one relayed WebSocket connection.
type wsRelay struct {
	p             *Proxy
	ctx           context.Context
	client, up    *websocket.Conn
	target, shown string
	header        http.Header
	mu            sync.Mutex
	cycles        []*wsCycle // the cycles asked for and not yet ended, in order
	held          responsesws.Held
	heldMu        sync.Mutex
}

// A wsCycle is one response.create frame and the frames that answer it.
type wsCycle struct {
	slot    uint64
	body    []byte            // the HTTP request it stands for; nil: not recordable
	inputs  []json.RawMessage // its whole input, for the held context
	why     string            // why it is not recorded
	sentAt  time.Time
	rw      Rewriter
	checked bool         // rw was asked for
	pending []byte       // rewritten bytes not yet a whole event
	got     bytes.Buffer // the events the client got, as SSE
	reads   []arrival
	status  int // an error frame's status, 0 for a stream
	errBody []byte
}

// fromClient passes the client's frames on, taking a slot for each
// response.create in the order they come. When the client ends the
// connection it ends the upstream's, which ends fromUpstream: the
// relay's context is not cancelled here, so that a cycle whose last
// frame the client read before it closed is still recorded.
func (rl *wsRelay) fromClient() {
	for {
		typ, data, err := rl.client.Read(rl.ctx)
		if err != nil {
			if code := websocket.CloseStatus(err); code >= 0 && code != websocket.StatusNoStatusRcvd {
				rl.up.Close(code, closeReason(err))
			} else {
				rl.up.CloseNow()
			}
			return
		}
		if typ == websocket.MessageText {
			rl.request(data)
		}
		if err := rl.up.Write(rl.ctx, typ, data); err != nil {
			return
		}
	}
}

// request notes a response.create frame: the cycle it starts.
func (rl *wsRelay) request(frame []byte) {
	f, err := responsesws.ParseFrame(frame)
	if err != nil || f.Type != responsesws.TypeCreate {
		return // passed on as it came; nothing answers it that is recorded
	}
	c := &wsCycle{slot: rl.p.order.take(), sentAt: time.Now()}
	rl.heldMu.Lock()
	input, err := rl.held.Resolve(f)
	rl.heldMu.Unlock()
	switch {
	case err != nil:
		c.why = "a continuation of a response this connection did not carry here"
	case f.Warmup:
		c.why = "a warm-up (generate: false), which a replay answers itself"
	default:
		c.body, c.inputs = f.Body(input), input
	}
	rl.mu.Lock()
	rl.cycles = append(rl.cycles, c)
	rl.mu.Unlock()
}

// fromUpstream passes the upstream's frames to the client, each cycle's
// through Rewrite, until the upstream ends the connection.
func (rl *wsRelay) fromUpstream() {
	for {
		typ, data, err := rl.up.Read(rl.ctx)
		if err != nil {
			code := websocket.CloseStatus(err)
			switch {
			case code == websocket.StatusNoStatusRcvd:
				rl.client.Close(websocket.StatusNoStatusRcvd, "")
			case code >= 0:
				rl.client.Close(code, closeReason(err))
			}
			return
		}
		rl.mu.Lock()
		var c *wsCycle
		if len(rl.cycles) > 0 {
			c = rl.cycles[0]
		}
		rl.mu.Unlock()
		if typ != websocket.MessageText || c == nil {
			if rl.client.Write(rl.ctx, typ, data) != nil {
				return
			}
			continue
		}
		if !rl.frame(c, data) {
			return
		}
	}
}

// frame passes one upstream frame of cycle c; false ends the connection.
func (rl *wsRelay) frame(c *wsCycle, frame []byte) bool {
	if e, ok := responsesws.ReadError(frame); ok && e.Status != 0 && !c.checked {
		c.status, c.errBody = e.Status, append(append([]byte(`{"error":`), e.Error...), '}')
		if rl.client.Write(rl.ctx, websocket.MessageText, frame) != nil {
			return false
		}
		rl.end(c)
		return true
	}
	if !c.checked {
		c.checked = true
		if rl.p.Rewrite != nil && c.body != nil {
			req, _ := http.NewRequestWithContext(rl.ctx, http.MethodPost, rl.target, bytes.NewReader(c.body))
			req.Header = rl.header
			c.rw = rl.p.Rewrite(req, c.body)
		}
	}
	event := responsesws.Event(frame)
	out, err := event, error(nil)
	if c.rw != nil {
		out, err = c.rw.Write(event)
	}
	terminal := responsesws.Terminal(frame)
	if terminal && c.rw != nil && err == nil {
		var tail []byte
		tail, err = c.rw.Close()
		out = append(out, tail...)
		if e, ok := c.rw.(ender); ok && err == nil {
			if !rl.send(c, out) {
				return false
			}
			out, err = nil, e.End()
		}
	}
	if err != nil {
		rl.p.logf("agentvcr: GET %s: %v", rl.shown, err)
	}
	if !rl.send(c, out) {
		return false
	}
	if errors.Is(err, ErrCutAnswer) {
		rl.client.CloseNow() // as a reset drops a connection: no close frame
		return false
	}
	if terminal {
		rl.end(c)
	}
	return true
}

// send passes the whole events of b (and what is pending before them) to
// the client, one frame each, and keeps them for the recording.
func (rl *wsRelay) send(c *wsCycle, b []byte) bool {
	c.pending = append(c.pending, b...)
	end := 0
	for _, e := range sse.SplitEvents(c.pending) {
		if !bytes.HasSuffix(e, []byte("\n\n")) {
			break
		}
		end += len(e)
		if c.got.Len()+len(e) <= agent.DefaultMaxBodyBytes {
			c.got.Write(e)
			c.reads = append(c.reads, arrival{end: c.got.Len(), at: time.Since(c.sentAt)})
		} else {
			c.why = fmt.Sprintf("the answer is over %d bytes", agent.DefaultMaxBodyBytes)
		}
		for _, fr := range responsesws.Frames(e) {
			if responsesws.Terminal(fr) {
				// held before the client reads the end: its continuation may
				// come at once, and must find what it continues
				rl.hold(c)
			}
			if rl.client.Write(rl.ctx, websocket.MessageText, fr) != nil {
				return false
			}
		}
	}
	c.pending = c.pending[end:]
	return true
}

// hold keeps what a cycle's response held, for the continuations after
// it.
func (rl *wsRelay) hold(c *wsCycle) {
	if c.status != 0 || c.inputs == nil {
		return
	}
	rl.heldMu.Lock()
	rl.held.Keep(c.inputs, c.got.Bytes())
	rl.heldMu.Unlock()
}

// end ends the first cycle: recorded unless something said why not.
func (rl *wsRelay) end(c *wsCycle) {
	rl.mu.Lock()
	rl.cycles = rl.cycles[1:]
	rl.mu.Unlock()
	if c.body == nil || c.why != "" || rl.p.cassette == nil {
		if c.why != "" {
			rl.p.logf("agentvcr record: POST %s over a WebSocket: %s (not recorded)", rl.shown, c.why)
		}
		rl.p.order.done(c.slot, nil, rl.p.commit)
		return
	}
	h := http.Header{}
	status, answer := http.StatusOK, c.got.Bytes()
	if c.status != 0 {
		status, answer = c.status, c.errBody
		h.Set("Content-Type", "application/json")
	} else {
		h.Set("Content-Type", "text/event-stream")
		setEventTimes(h, eventTimes(h, answer, c.reads))
	}
	h.Set(cassette.TransportHeader, cassette.TransportWebSocket)
	captured := &http.Response{Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), StatusCode: status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(answer)), ContentLength: int64(len(answer))}
	next, err := http.NewRequestWithContext(context.WithValue(context.Background(), capturedKey{}, captured), http.MethodPost, rl.target, bytes.NewReader(c.body))
	if err != nil {
		rl.p.order.done(c.slot, nil, rl.p.commit)
		return
	}
	next.Header = rl.header.Clone()
	next.Header.Set("Content-Type", "application/json")
	rl.p.order.done(c.slot, next, rl.p.commit)
}

func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return ""
}
