package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/responsesws"
)

// DefaultMaxWebSockets is how many WebSocket connections a Server keeps
// open at once when MaxWebSockets is 0. One more is accepted and closed at
// once with code 1013 (try again later), so that a client that opens a
// thousand holds no more than these.
const DefaultMaxWebSockets = 256

// DefaultFrameWriteTimeout bounds the write of one frame when
// FrameWriteTimeout is 0: a client that stops reading for this long has its
// connection closed, so that what the server holds for it stays bounded.
const DefaultFrameWriteTimeout = 30 * time.Second

// TransportWebSocket is Request.Transport and JournalEntry.Transport for
// a request sent as a response.create frame.
const TransportWebSocket = "websocket"

// wsConns are the WebSocket connections a Server holds: a hijacked
// connection is not the http.Server's any more, so stop closes these.
type wsConns struct {
	mu    sync.Mutex
	conns map[*websocket.Conn]struct{}
}

// add holds c unless max are held already (no bound when max < 0).
func (t *wsConns) add(c *websocket.Conn, max int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if max >= 0 && len(t.conns) >= max {
		return false
	}
	if t.conns == nil {
		t.conns = map[*websocket.Conn]struct{}{}
	}
	t.conns[c] = struct{}{}
	return true
}

func (t *wsConns) remove(c *websocket.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.conns, c)
}

// Len is how many connections are held.
func (t *wsConns) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}

func (t *wsConns) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for c := range t.conns {
		c.CloseNow()
	}
}

// WebSockets is how many WebSocket connections the server holds open.
func (s *Server) WebSockets() int { return s.ws.Len() }

// IsUpgrade reports a WebSocket handshake: a GET asking to upgrade (the
// one test of serve and of record's relay).
func IsUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// websocket serves the Responses API over a WebSocket on the Responses
// path: the handshake (refused with 426 when the route says so), then one
// cycle per response.create frame, in order, on one connection: the frame
// read into the HTTP request it stands for (the connection's held context
// before its input, responsesws.Held), answered through answer as a POST
// is, and sent back as frames (frameWriter). Each bad input closes the
// connection with its code and a log line: a frame that is not a JSON
// object 1007, a binary frame 1003, a frame over MaxBody 1009, bodies over
// MaxBodyTotal and connections over MaxWebSockets 1013.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request, name, path string, api *agent.Format, route *Route) {
	hs := Request{Case: name, Method: r.Method, Path: path, Header: r.Header, Transport: TransportWebSocket}
	refuse := 0
	if route.WebSocket != nil {
		refuse = route.WebSocket(hs)
	}
	if refuse == 0 && route.Fault.Kind == FaultRefuseUpgrade {
		refuse = http.StatusUpgradeRequired
	}
	if refuse != 0 {
		entry := JournalEntry{Seq: s.seq.Add(1), Case: name, Method: r.Method, Path: path, Transport: TransportWebSocket, Status: refuse}
		if route.Fault.Kind == FaultRefuseUpgrade {
			entry.Fault = route.Fault.String()
		}
		s.write(entry)
		s.fail(w, api, refuse, "upgrade_refused", fmt.Sprintf("this server takes no WebSocket on %s here: POST the request to it instead", r.URL.Path))
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		s.logf("agentvcr serve: websocket %s: the handshake failed: %v", r.URL.Path, err)
		return // Accept answered the client
	}
	max := s.MaxWebSockets
	if max == 0 {
		max = DefaultMaxWebSockets
	}
	if !s.ws.add(conn, max) {
		s.logf("agentvcr serve: websocket %s: closed 1013: %d connections are open already (Server.MaxWebSockets)", r.URL.Path, max)
		go conn.Close(websocket.StatusTryAgainLater, "agentvcr: too many connections; try again later")
		return
	}
	defer s.ws.remove(conn)
	limit := s.MaxBody
	if limit <= 0 {
		limit = MaxRequestBody
	}
	conn.SetReadLimit(limit)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			conn.CloseNow()
		case <-ctx.Done():
		}
	}()
	c := &wsConn{s: s, conn: conn, ctx: ctx, handshake: r, api: api, route: route, hs: hs}
	messages := make(chan wsMessage)
	go c.read(messages, cancel)
	for m := range messages {
		if !c.message(m) {
			break
		}
	}
	cancel()
	conn.CloseNow()
	for range messages { // let the reader end
	}
}

// A wsMessage is one message the connection's reader read, or why it
// stopped.
type wsMessage struct {
	typ  websocket.MessageType
	data []byte
	err  error
}

// A wsConn is one WebSocket connection's side of the server.
type wsConn struct {
	s         *Server
	conn      *websocket.Conn
	ctx       context.Context
	handshake *http.Request
	api       *agent.Format
	route     *Route
	hs        Request
	held      responsesws.Held
	warmups   int
}

// read reads messages until the connection ends, each within the
// server's body bounds (the same as a POST body's); the last message
// carries the error that ended it, and the connection's context is
// cancelled then, so that a stall ends when the client goes away.
func (c *wsConn) read(out chan<- wsMessage, cancel context.CancelFunc) {
	defer close(out)
	for {
		typ, rd, err := c.conn.Reader(c.ctx)
		var data []byte
		if err == nil {
			data, err = readAll(rd, 0, c.s.bodies())
		}
		if err != nil {
			cancel()
			out <- wsMessage{err: err}
			return
		}
		select {
		case out <- wsMessage{typ: typ, data: data}:
		case <-c.ctx.Done():
			return
		}
	}
}

// message handles one message; false ends the connection.
func (c *wsConn) message(m wsMessage) bool {
	path := c.handshake.URL.Path
	if m.err != nil {
		c.ended(m.err)
		return false
	}
	if m.typ != websocket.MessageText {
		c.s.logf("agentvcr serve: websocket %s: closed 1003: a binary frame (%d bytes); the Responses API takes JSON text frames", path, len(m.data))
		c.conn.Close(websocket.StatusUnsupportedData, "agentvcr: binary frames are not requests; send JSON text frames")
		return false
	}
	f, err := responsesws.ParseFrame(m.data)
	if err != nil {
		c.s.logf("agentvcr serve: websocket %s: closed 1007: %v: %s", path, err, cut(m.data, 80))
		c.conn.Close(websocket.StatusInvalidFramePayloadData, "agentvcr: a frame that is not a JSON object")
		return false
	}
	switch f.Type {
	case responsesws.TypeProcessed:
		return true // an acknowledgement: nothing to answer
	case responsesws.TypeCreate:
	default:
		c.s.logf("agentvcr serve: websocket %s: a frame of type %q: answered with an error frame", path, f.Type)
		msg := fmt.Sprintf(`{"error":{"type":"invalid_request_error","code":"unknown_frame_type","message":"agentvcr: a frame of type %q; send response.create"}}`, strings.ReplaceAll(f.Type, `"`, `'`))
		return c.send(responsesws.ErrorFrame(http.StatusBadRequest, nil, []byte(msg))) == nil
	}
	return c.cycle(f, m.data)
}

// cycle answers one response.create frame.
func (c *wsConn) cycle(f responsesws.Frame, raw []byte) bool {
	s, name, path := c.s, c.hs.Case, c.hs.Path
	forget := f.PreviousResponseID != "" && c.route.Fault.Kind == FaultForgetPrevious && c.route.Fault.AppliesTo(turnOf(c.api, raw))
	if forget {
		_, seen := s.forgot.LoadOrStore(name, true)
		forget = !seen
	}
	input, err := c.held.Resolve(f)
	if forget && err == nil {
		err = fmt.Errorf("%w: %q (fault %s)", responsesws.ErrPreviousNotFound, f.PreviousResponseID, c.route.Fault)
	}
	if err != nil {
		entry := JournalEntry{Seq: s.seq.Add(1), Case: name, Method: http.MethodPost, Path: path, Transport: TransportWebSocket, Status: http.StatusBadRequest, Error: err.Error(), body: raw}
		if forget {
			entry.Fault = c.route.Fault.String()
		}
		s.write(entry)
		s.logf("agentvcr serve: websocket %s: %v: answered previous_response_not_found", c.handshake.URL.Path, err)
		return c.send(responsesws.PreviousNotFound(f.PreviousResponseID)) == nil
	}
	if f.Warmup {
		c.warmups++
		stream := warmupStream(fmt.Sprintf("resp_agentvcr_warmup_%d", c.warmups))
		s.write(JournalEntry{Seq: s.seq.Add(1), Case: name, Method: http.MethodPost, Path: path, Transport: TransportWebSocket, Status: http.StatusOK, From: "warm-up (generate: false)", body: raw})
		for _, fr := range responsesws.Frames(stream) {
			if c.send(fr) != nil {
				return false
			}
		}
		c.held.Keep(input, stream)
		return true
	}
	body := f.Body(input)
	r, _ := http.NewRequestWithContext(c.ctx, http.MethodPost, c.handshake.URL.String(), bytes.NewReader(body))
	r.Header = c.handshake.Header.Clone()
	r.Header.Set("Content-Type", "application/json")
	for _, h := range []string{"Upgrade", "Connection", "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions"} {
		r.Header.Del(h)
	}
	fw := &frameWriter{conn: c.conn, ctx: c.ctx, timeout: c.writeTimeout()}
	req := Request{Case: name, Method: http.MethodPost, Path: path, Header: r.Header, Body: body, Transport: TransportWebSocket, Frame: raw}
	if aborted := c.answer(fw, r, req); aborted {
		c.s.logf("agentvcr serve: websocket %s: closed with no close frame: fault %s", c.handshake.URL.Path, FaultReset)
		c.conn.CloseNow()
		return false
	}
	if err := fw.finish(); err != nil {
		if fw.broken == "" {
			c.ended(err)
		}
		return fw.broken == FaultFrameError // the connection outlives an error frame
	}
	c.held.Keep(input, fw.sent)
	if c.stopping() {
		c.conn.CloseNow() // the server is stopping: no close handshake to wait on
		return false
	}
	if !fw.ended && fw.status == http.StatusOK {
		// Over HTTP a stream that stops short ends with its body; the
		// frames have no body to end, so the connection ends instead, or
		// the client would wait for the rest until its idle timeout.
		c.s.logf("agentvcr serve: websocket %s: closed 1000: the stream ended before its response did (no response.completed, failed or incomplete)", c.handshake.URL.Path)
		c.conn.Close(websocket.StatusNormalClosure, "agentvcr: the stream ended before its response did")
		return false
	}
	return true
}

// stopping reports whether the server is stopping.
func (c *wsConn) stopping() bool {
	select {
	case <-c.s.done:
		return true
	default:
		return false
	}
}

// answer runs Server.answer on the frame writer; true when the handler
// aborted (a reset fault): the connection is then dropped with no close
// frame, as a reset drops a TCP connection.
func (c *wsConn) answer(fw *frameWriter, r *http.Request, req Request) (aborted bool) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			aborted = true
		}
	}()
	c.s.answer(fw, r, req, c.api, c.route)
	return false
}

// send writes one frame outside a response's stream.
func (c *wsConn) send(frame []byte) error {
	ctx, cancel := context.WithTimeout(c.ctx, c.writeTimeout())
	defer cancel()
	err := c.conn.Write(ctx, websocket.MessageText, frame)
	if err != nil {
		c.ended(err)
	}
	return err
}

// ended logs why a connection ended, unless the client closed it as a
// client does (codes 1000 and 1001, or going away between cycles).
func (c *wsConn) ended(err error) {
	path := c.handshake.URL.Path
	code := websocket.CloseStatus(err)
	switch {
	case code == websocket.StatusNormalClosure || code == websocket.StatusGoingAway:
	case errors.Is(err, websocket.ErrMessageTooBig):
		c.s.logf("agentvcr serve: websocket %s: closed 1009: a frame over %d bytes (Server.MaxBody)", path, c.limit())
	case errors.Is(err, ErrBodiesFull):
		c.s.logf("agentvcr serve: websocket %s: closed 1013: %v (Server.MaxBodyTotal)", path, err)
		c.conn.Close(websocket.StatusTryAgainLater, "agentvcr: the server holds too much; try again later")
	case errors.Is(err, context.DeadlineExceeded):
		c.s.logf("agentvcr serve: websocket %s: closed: the client read nothing for %s (Server.FrameWriteTimeout)", path, c.writeTimeout())
	case code >= 0:
		c.s.logf("agentvcr serve: websocket %s: the client closed with code %d: %v", path, code, err)
	case errors.Is(err, io.EOF), errors.Is(err, context.Canceled), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		c.s.logf("agentvcr serve: websocket %s: the client went away with no close frame", path)
	default:
		c.s.logf("agentvcr serve: websocket %s: ended: %v", path, err)
	}
}

func (c *wsConn) limit() int64 {
	if c.s.MaxBody > 0 {
		return c.s.MaxBody
	}
	return MaxRequestBody
}

func (c *wsConn) writeTimeout() time.Duration {
	if c.s.FrameWriteTimeout > 0 {
		return c.s.FrameWriteTimeout
	}
	return DefaultFrameWriteTimeout
}

// turnOf is a frame's turn as its HTTP request's would be: 1 + its
// assistant items. A continuation's context is held, so this counts what
// the frame itself sends.
func turnOf(api *agent.Format, frame []byte) int {
	if api.Turn == nil {
		return 1
	}
	_, turn := api.Turn(frame)
	return turn
}

// warmupStream is the answer to "generate": false: a response with no
// output, created and completed, whose id a continuation may name.
func warmupStream(id string) []byte {
	resp := fmt.Sprintf(`{"id":%q,"object":"response","created_at":1767225600,"status":"%%s","model":"agentvcr","output":[]}`, id)
	return fmt.Appendf(nil, "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":%s}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":1,\"response\":%s}\n\n",
		fmt.Sprintf(resp, "in_progress"), fmt.Sprintf(resp, "completed"))
}

// cut is b's first n bytes, for a log line.
func cut(b []byte, n int) string {
	if len(b) <= n {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q...", b[:n])
}
