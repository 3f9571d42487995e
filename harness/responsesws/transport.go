package responsesws

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/coder/websocket"

	"github.com/agentvcr/agentvcr/wire/responses"
)

// A Transport is an http.RoundTripper that sends Responses requests (a
// POST whose path ends in /responses) as response.create frames on one
// WebSocket to the same URL, and gives each cycle's frames back as an SSE
// response, so that a client reads them as it reads an HTTP stream. It is
// the client side agentvcr run -transport websocket uses.
//
//   - One connection, dialed on the first request with the request's
//     headers (its Authorization among them), carries every cycle, one at
//     a time; one that ends is dialed again on the next request.
//   - A request that extends the last one (the same members but input,
//     its input starting with the last one's, then the assistant's items,
//     then new ones) is sent as a continuation: previous_response_id and
//     the new items only. When the server answers previous_response_not_found
//     the whole input is sent again, once.
//   - An error frame before any event becomes an HTTP response with the
//     frame's status and {"error":...} body, so retries see a 429 or a 500
//     as over HTTP; a connection that ends inside a cycle ends its body
//     early (the reader finds the stream truncated).
//   - An upgrade refused with 426 sends this request and every later one
//     through Next instead: the server asked for HTTP.
//
// Other requests go to Next (http.DefaultTransport when nil).
type Transport struct {
	Next http.RoundTripper

	// Frames, when not nil, is told every frame sent and received
	// (sent true for a response.create), for a log.
	Frames func(sent bool, frame []byte)
	// Stale, when not nil, is told every frame dropped because it came
	// after its response's end and before the next request: no request
	// asked for it (a gateway that sends a second response after the
	// first one's end), and read as the next request's answer it would
	// answer that request with another's events.
	Stale func(frame []byte)

	mu       sync.Mutex // one cycle at a time; held until its body ends
	conn     *websocket.Conn
	incoming chan received // the connection's frames, read as they come
	fallback bool          // a 426 said: HTTP from now on
	last     *cycle
}

// received is one message the connection's reader read, or why it
// stopped.
type received struct {
	typ  websocket.MessageType
	data []byte
	err  error
}

// readAll reads the connection's messages into incoming until it ends, so
// that frames no request asked for are seen before the next request goes
// (dropStale), and a read given up on (a request's context) never closes
// the connection, as a cancelled read of the library does.
func readAll(conn *websocket.Conn, incoming chan<- received) {
	for {
		typ, data, err := conn.Read(context.Background())
		incoming <- received{typ, data, err}
		if err != nil {
			close(incoming)
			return
		}
	}
}

// dropStale drops the frames that came since the last response's end.
func (t *Transport) dropStale() {
	for {
		select {
		case m, ok := <-t.incoming:
			if !ok || m.err != nil {
				t.drop()
				return
			}
			if t.Stale != nil {
				t.Stale(m.data)
			}
		default:
			return
		}
	}
}

// cycle is what a continuation needs of the last response.
type cycle struct {
	members []member          // the request's members but input and stream
	input   []json.RawMessage // the request's whole input
	id      string            // the response's id
}

func (t *Transport) next() http.RoundTripper {
	if t.Next != nil {
		return t.Next
	}
	return http.DefaultTransport
}

// RoundTrip sends one request.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !responses.Format.Serves(req.URL.Path) {
		return t.next().RoundTrip(req)
	}
	t.mu.Lock()
	if t.fallback {
		t.mu.Unlock()
		return t.next().RoundTrip(req)
	}
	body, err := readBody(req)
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	f, err := ParseFrame(body)
	if err != nil {
		t.mu.Unlock()
		return nil, fmt.Errorf("responses over a WebSocket: the request body: %w", err)
	}
	if t.conn == nil {
		conn, resp, err := websocket.Dial(req.Context(), wsURL(req), &websocket.DialOptions{HTTPHeader: handshakeHeader(req.Header), HTTPClient: &http.Client{Transport: t.next()}})
		if resp != nil && resp.StatusCode == http.StatusUpgradeRequired {
			t.fallback = true
			t.mu.Unlock()
			return t.next().RoundTrip(requestWith(req, body))
		}
		if err != nil {
			t.mu.Unlock()
			return nil, fmt.Errorf("responses over a WebSocket: %w", err)
		}
		conn.SetReadLimit(-1) // a response's events are as long as the model makes them
		t.conn, t.incoming = conn, make(chan received, staleFrames)
		t.last = nil // a new connection holds nothing
		go readAll(conn, t.incoming)
	} else {
		t.dropStale()
		if t.conn == nil { // it ended while no cycle ran
			t.mu.Unlock()
			return t.RoundTrip(requestWith(req, body))
		}
	}
	resp, err := t.cycle(req.Context(), f, body, true)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.mu.Unlock() // an answer with no stream: the cycle is over
	}
	return resp, err
}

// cycle sends one frame and reads until the response's first event; the
// stream's body then holds t.mu until it ends.
func (t *Transport) cycle(ctx context.Context, f Frame, body []byte, continueLast bool) (*http.Response, error) {
	frame, cont := t.frame(f, continueLast)
	if t.Frames != nil {
		t.Frames(true, frame)
	}
	if err := t.conn.Write(ctx, websocket.MessageText, frame); err != nil {
		t.drop()
		return nil, fmt.Errorf("responses over a WebSocket: sending the request: %w", err)
	}
	first, err := t.read(ctx)
	if err != nil {
		t.drop()
		return nil, fmt.Errorf("responses over a WebSocket: %w", err)
	}
	if e, ok := ReadError(first); ok && e.Status != 0 {
		if cont && e.Code == "previous_response_not_found" {
			return t.cycle(ctx, f, body, false)
		}
		return errorResponse(e), nil
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	s := &stream{t: t, pw: pw, f: f, cancel: cancel}
	go s.pump(ctx, first)
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: h, Body: &streamBody{PipeReader: pr, s: s}, ContentLength: -1, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// frame is the response.create frame of a request: a continuation of the
// last response when continueLast and the request extends it.
func (t *Transport) frame(f Frame, continueLast bool) (frame []byte, continued bool) {
	input := f.Input
	prev := ""
	if continueLast && t.last != nil && t.last.id != "" && sameMembers(t.last.members, f.members) {
		if rest, ok := extends(f.Input, t.last.input); ok {
			input, prev = rest, t.last.id
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"type":"response.create"`)
	if prev != "" {
		p, _ := json.Marshal(prev)
		b.WriteString(`,"previous_response_id":`)
		b.Write(p)
	}
	body := f.Body(input)
	if len(body) > 2 {
		b.WriteByte(',')
		b.Write(body[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes(), prev != ""
}

// staleFrames is how many frames the reader holds ahead of a cycle: a
// gateway that sends more than these between two responses makes its
// reader wait, not grow.
const staleFrames = 64

// read reads one text frame.
func (t *Transport) read(ctx context.Context) ([]byte, error) {
	var m received
	var ok bool
	select {
	case m, ok = <-t.incoming:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	switch {
	case !ok:
		return nil, errors.New("the connection ended")
	case m.err != nil:
		return nil, m.err
	case m.typ != websocket.MessageText:
		return nil, fmt.Errorf("a binary frame (%d bytes): the Responses API sends JSON text frames", len(m.data))
	}
	if t.Frames != nil {
		t.Frames(false, m.data)
	}
	return m.data, nil
}

// drop forgets a connection that failed; its reader ends with it.
func (t *Transport) drop() {
	if t.conn != nil {
		t.conn.CloseNow()
		go func(in <-chan received) {
			for range in { // let the reader end
			}
		}(t.incoming)
	}
	t.conn, t.incoming, t.last = nil, nil, nil
}

// Close closes the connection, if one is open.
func (t *Transport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn == nil {
		return nil
	}
	in := t.incoming
	go func() {
		for range in { // the close handshake's reply reaches the reader
		}
	}()
	err := t.conn.Close(websocket.StatusNormalClosure, "")
	t.conn, t.incoming, t.last = nil, nil, nil
	return err
}

// A stream writes a cycle's frames into its response body, as SSE.
type stream struct {
	t      *Transport
	pw     *io.PipeWriter
	f      Frame
	cancel context.CancelFunc // ends a read in progress: the body was closed
	once   sync.Once
	sse    bytes.Buffer // the events, for the held output
}

func (s *stream) pump(ctx context.Context, frame []byte) {
	for {
		e := Event(frame)
		s.sse.Write(e)
		if _, err := s.pw.Write(e); err != nil {
			s.end(false) // the reader closed the body before the end
			return
		}
		if Terminal(frame) {
			s.end(true)
			return
		}
		var err error
		if frame, err = s.t.read(ctx); err != nil {
			s.end(false)
			return
		}
	}
}

// end ends the cycle: a whole one is kept for a continuation; a cut one
// drops the connection, whose state is then unknown.
func (s *stream) end(whole bool) {
	s.once.Do(func() {
		if whole {
			s.t.last = &cycle{members: withoutInput(s.f.members), input: s.f.Input, id: ResponseID(s.sse.Bytes())}
		} else {
			s.t.drop()
		}
		s.pw.Close()
		s.cancel()
		s.t.mu.Unlock()
	})
}

// streamBody is a cycle's response body: closing it before the end ends
// the cycle.
type streamBody struct {
	*io.PipeReader
	s *stream
}

func (b *streamBody) Close() error {
	b.PipeReader.CloseWithError(errors.New("responses over a WebSocket: the body was closed"))
	b.s.cancel() // a pump waiting for the next frame gives up, and drops the connection
	return nil
}

// errorResponse is the HTTP response an error frame stands for.
func errorResponse(e FrameError) *http.Response {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	for k, v := range e.Headers {
		h.Set(k, v)
	}
	body := append(append([]byte(`{"error":`), e.Error...), '}')
	if len(e.Error) == 0 {
		body = []byte(`{"error":{"message":"an error frame with no error"}}`)
	}
	return &http.Response{StatusCode: e.Status, Status: fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status)), Header: h,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

// requestWith is req with body as its body again.
func requestWith(req *http.Request, body []byte) *http.Request {
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	return req
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, errors.New("responses over a WebSocket: a request with no body")
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// wsURL is the request's URL with the WebSocket scheme.
func wsURL(req *http.Request) string {
	u := *req.URL
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	return u.String()
}

// handshakeHeader is what of a request's headers the handshake carries:
// all but those of its body and of HTTP framing.
func handshakeHeader(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range []string{"Content-Type", "Content-Length", "Accept", "Accept-Encoding", "Connection", "Transfer-Encoding"} {
		out.Del(k)
	}
	return out
}

func withoutInput(ms []member) []member {
	var out []member
	for _, m := range ms {
		if m.key != "input" && m.key != "stream" {
			out = append(out, m)
		}
	}
	return out
}

func sameMembers(last, now []member) bool {
	now = withoutInput(now)
	if len(last) != len(now) {
		return false
	}
	for i := range last {
		if last[i].key != now[i].key || !bytes.Equal(compact(last[i].value), compact(now[i].value)) {
			return false
		}
	}
	return true
}

// extends returns the new items of input when it extends last, the last
// request's whole input: last, then the client's own copy of the
// assistant's items (the server holds its own output for them), then the
// new items, none of them the assistant's.
func extends(input, last []json.RawMessage) ([]json.RawMessage, bool) {
	if len(input) < len(last) {
		return nil, false
	}
	for i := range last {
		if !bytes.Equal(compact(input[i]), compact(last[i])) {
			return nil, false
		}
	}
	rest := input[len(last):]
	for len(rest) > 0 && assistantItem(rest[0]) {
		rest = rest[1:]
	}
	for _, it := range rest {
		if assistantItem(it) {
			return nil, false
		}
	}
	return rest, true
}

// assistantItem reports an item of the model's output: a call, reasoning,
// or an assistant message.
func assistantItem(item json.RawMessage) bool {
	var it struct {
		Type string `json:"type"`
		Role string `json:"role"`
	}
	json.Unmarshal(item, &it)
	switch it.Type {
	case "function_call", "custom_tool_call", "reasoning":
		return true
	case "message", "":
		return it.Role == "assistant"
	}
	return false
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}
