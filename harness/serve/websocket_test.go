package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// wsStream is streamtest.ResponsesStream of the call (call true) or the
// message.
func wsStream(id string, call bool) []byte {
	if call {
		return streamtest.ResponsesStream(id, streamtest.ResponsesCall)
	}
	return streamtest.ResponsesStream(id, streamtest.ResponsesMessage)
}

// wsServer serves a conversation of two turns (a call, then a message) on
// every case, keeping what Answer saw.
type wsServer struct {
	mu   sync.Mutex
	seen []Request
	log  bytes.Buffer
}

func (ws *wsServer) route(f Fault) func(string) (*Route, error) {
	return func(string) (*Route, error) {
		return &Route{Fault: f, Answer: func(r Request) (Reply, error) {
			ws.mu.Lock()
			ws.seen = append(ws.seen, r)
			ws.mu.Unlock()
			return Reply{Body: streamtest.ResponsesTurn(r.Turn)}, nil
		}}, nil
	}
}

func (ws *wsServer) Write(p []byte) (int, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.log.Write(p)
}

func (ws *wsServer) logged() string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.log.String()
}

func wsURL(base, path string) string {
	return "ws" + strings.TrimPrefix(base, "http") + path
}

func dial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readCycle reads frames until one ends a response (completed, failed,
// incomplete or error) or the connection ends.
func readCycle(t *testing.T, c *websocket.Conn) (frames []string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return frames, err
		}
		if typ != websocket.MessageText {
			t.Fatalf("a %v frame", typ)
		}
		frames = append(frames, string(data))
		var head struct{ Type string }
		json.Unmarshal(data, &head)
		switch head.Type {
		case "response.completed", "response.failed", "response.incomplete", "error":
			return frames, nil
		}
	}
}

func write(t *testing.T, c *websocket.Conn, frame string) {
	t.Helper()
	if err := c.Write(context.Background(), websocket.MessageText, []byte(frame)); err != nil {
		t.Fatal(err)
	}
}

const (
	wsFirst  = `{"type":"response.create","model":"m","input":[{"type":"message","role":"user","content":"hi"}],"tools":[],"store":false}`
	wsSecond = `{"type":"response.create","model":"m","previous_response_id":"resp_1","input":[{"type":"function_call_output","call_id":"call_1","output":"a.txt"}],"tools":[],"store":false}`
)

func TestWebSocketContinuation(t *testing.T) {
	ws := &wsServer{}
	var journal bytes.Buffer
	base := serveOn(t, &Server{Route: ws.route(Fault{}), Log: ws, Journal: &journal})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	frames, err := readCycle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if want := Frames(wsStream("resp_1", true)); !cmp.Equal(frames, want) {
		t.Errorf("first cycle's frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	write(t, c, `{"type":"response.processed","response_id":"resp_1"}`)
	write(t, c, wsSecond)
	if frames, err = readCycle(t, c); err != nil {
		t.Fatal(err)
	}
	if want := Frames(wsStream("resp_2", false)); !cmp.Equal(frames, want) {
		t.Errorf("second cycle's frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	c.Close(websocket.StatusNormalClosure, "")
	if len(ws.seen) != 2 {
		t.Fatalf("Answer saw %d requests, want 2 (response.processed asks for none)", len(ws.seen))
	}
	wantBodies := []string{
		`{"model":"m","input":[{"type":"message","role":"user","content":"hi"}],"tools":[],"store":false,"stream":true}`,
		`{"model":"m","input":[{"type":"message","role":"user","content":"hi"},{"type":"function_call","id":"fc_1","status":"completed","call_id":"call_1","name":"glob","arguments":"{\"pattern\":\"*\"}"},{"type":"function_call_output","call_id":"call_1","output":"a.txt"}],"tools":[],"store":false,"stream":true}`,
	}
	for i, r := range ws.seen {
		if string(r.Body) != wantBodies[i] {
			t.Errorf("request %d's body:\n got %s\nwant %s", i+1, r.Body, wantBodies[i])
		}
		if r.Transport != TransportWebSocket || r.Method != http.MethodPost || r.Path != "/v1/responses" || r.Turn != i+1 {
			t.Errorf("request %d: transport %q, %s %s, turn %d; want websocket, POST /v1/responses, turn %d", i+1, r.Transport, r.Method, r.Path, r.Turn, i+1)
		}
	}
	if !strings.Contains(journal.String(), `"transport":"websocket"`) {
		t.Errorf("the journal does not say websocket:\n%s", journal.String())
	}
}

// Frames is responsesws.Frames as strings.
func Frames(stream []byte) []string {
	var out []string
	for _, e := range strings.SplitAfter(string(stream), "\n\n") {
		if _, data, ok := strings.Cut(e, "data: "); ok {
			out = append(out, strings.TrimSuffix(data, "\n\n"))
		}
	}
	return out
}

func TestWebSocketPreviousNotFound(t *testing.T) {
	ws := &wsServer{}
	base := serveOn(t, &Server{Route: ws.route(Fault{}), Log: ws})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsSecond)
	frames, err := readCycle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"type":"error","status":400,"error":{"type":"invalid_request_error","code":"previous_response_not_found","message":"Previous response with id 'resp_1' not found.","param":"previous_response_id"}}`}
	if !cmp.Equal(frames, want) {
		t.Errorf("frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	// the connection goes on: the whole input is answered
	write(t, c, wsFirst)
	if _, err := readCycle(t, c); err != nil {
		t.Fatal(err)
	}
	if got := ws.logged(); !strings.Contains(got, `previous response not found: "resp_1": answered previous_response_not_found`) {
		t.Errorf("log: %s", got)
	}
}

func TestWebSocketWarmup(t *testing.T) {
	ws := &wsServer{}
	base := serveOn(t, &Server{Route: ws.route(Fault{})})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, `{"type":"response.create","model":"m","generate":false,"input":[{"type":"message","role":"user","content":"hi"}]}`)
	frames, err := readCycle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"response.created","sequence_number":0,"response":{"id":"resp_agentvcr_warmup_1","object":"response","created_at":1767225600,"status":"in_progress","model":"agentvcr","output":[]}}`,
		`{"type":"response.completed","sequence_number":1,"response":{"id":"resp_agentvcr_warmup_1","object":"response","created_at":1767225600,"status":"completed","model":"agentvcr","output":[]}}`,
	}
	if !cmp.Equal(frames, want) {
		t.Errorf("frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	write(t, c, `{"type":"response.create","model":"m","previous_response_id":"resp_agentvcr_warmup_1","input":[]}`)
	if _, err := readCycle(t, c); err != nil {
		t.Fatal(err)
	}
	if len(ws.seen) != 1 || string(ws.seen[0].Body) != `{"model":"m","input":[{"type":"message","role":"user","content":"hi"}],"stream":true}` {
		t.Errorf("Answer saw %d requests: %+v; want the warm-up's input continued", len(ws.seen), ws.seen)
	}
}

func TestWebSocketErrorStatusIsAnErrorFrame(t *testing.T) {
	base := serveOn(t, &Server{Route: func(string) (*Route, error) {
		return &Route{Fault: Fault{Kind: Fault429, After: 2}, Answer: func(Request) (Reply, error) { return Reply{Body: wsStream("resp_1", true)}, nil }}, nil
	}})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	frames, err := readCycle(t, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"type":"error","status":429,"error":{"code":"rate_limit_exceeded","message":"agentvcr fault: rate limited; retry after the Retry-After header's seconds","type":"invalid_request_error"},"headers":{"retry-after":"2"}}`}
	if !cmp.Equal(frames, want) {
		t.Errorf("frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	write(t, c, wsFirst) // the retry is answered
	if frames, err = readCycle(t, c); err != nil || len(frames) != 4 {
		t.Errorf("the retry: %d frames, %v; want the 4 events", len(frames), err)
	}
}

// TestWebSocketFaults serves each frame fault on a first cycle and reads
// what the client gets.
func TestWebSocketFaults(t *testing.T) {
	clean := Frames(wsStream("resp_1", true))
	tests := []struct {
		fault  string
		frames []string
		err    string // how the connection ended ("" when it did not)
	}{
		{"ws-split", clean, ""},
		{"ws-ping", clean, ""},
		{"ws-pair:1", []string{clean[0], clean[1] + "\n" + clean[2], clean[3]}, ""},
		{"ws-close:2", clean[:2], "failed to get reader: received close frame: status = StatusInternalError and reason = \"agentvcr fault: the gateway closed the connection mid-stream\""},
		{"ws-close-bare:2", clean[:2], "failed to get reader: received close frame: status = StatusNoStatusRcvd and reason = \"\""},
		{"ws-error:2", append(clean[:2:2], `{"type":"error","status":500,"error":{"type":"server_error","code":"server_error","message":"agentvcr fault: the gateway failed mid-stream"}}`), ""},
		{"reset:2", clean[:2], "failed to get reader: failed to read frame header: EOF"},
		{"error-event:2", append(clean[:2:2], `{"type":"error","code":"server_error","message":"agentvcr fault: the gateway failed mid-stream","param":null}`), ""},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			f, err := ParseFault(tt.fault)
			if err != nil {
				t.Fatal(err)
			}
			ws := &wsServer{}
			base := serveOn(t, &Server{Route: ws.route(f), Log: ws})
			c := dial(t, wsURL(base, "/responses"))
			write(t, c, wsFirst)
			frames, err := readCycle(t, c)
			if !cmp.Equal(frames, tt.frames) {
				t.Errorf("frames (-got +want):\n%s", cmp.Diff(frames, tt.frames))
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.err {
				t.Errorf("the connection ended with %q, want %q", got, tt.err)
			}
		})
	}
}

func TestWebSocketSplitIsOneMessageOfSeveralFrames(t *testing.T) {
	f, _ := ParseFault("ws-split")
	ws := &wsServer{}
	base := serveOn(t, &Server{Route: ws.route(f)})
	// a raw reader of frames: count the frames of the first message
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	_, r, err := c.Reader(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	reads := 0
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		got.Write(buf[:n])
		if n > 0 {
			reads++
		}
		if err != nil {
			break
		}
	}
	if want := Frames(wsStream("resp_1", true))[0]; got.String() != want {
		t.Errorf("the message is %q, want %q", got.String(), want)
	}
	if reads < 2 {
		t.Errorf("the message came in %d piece, want one per frame (2)", reads)
	}
}

func TestWebSocketForgetPrevious(t *testing.T) {
	f, _ := ParseFault("ws-forget")
	ws := &wsServer{}
	base := serveOn(t, &Server{Route: ws.route(f), Log: ws})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	if _, err := readCycle(t, c); err != nil {
		t.Fatal(err)
	}
	write(t, c, wsSecond)
	frames, _ := readCycle(t, c)
	if len(frames) != 1 || !strings.Contains(frames[0], `"code":"previous_response_not_found"`) {
		t.Fatalf("the first continuation got %q, want previous_response_not_found", frames)
	}
	write(t, c, wsSecond) // once per case: the second try is answered
	frames, _ = readCycle(t, c)
	if len(frames) != 4 {
		t.Errorf("the second continuation got %q, want the 4 events", frames)
	}
}

func TestWebSocketRefused(t *testing.T) {
	ws := &wsServer{}
	var journal bytes.Buffer
	base := serveOn(t, &Server{Route: ws.route(Fault{Kind: FaultRefuseUpgrade}), Log: ws, Journal: &journal})
	_, resp, err := websocket.Dial(context.Background(), wsURL(base, "/responses"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusUpgradeRequired {
		t.Fatalf("Dial: %v, %v; want 426", resp, err)
	}
	if !strings.Contains(journal.String(), `"method":"GET","path":"/v1/responses","model":"","turn":0,"transport":"websocket","status":426,"fault":"ws-refuse"`) {
		t.Errorf("journal: %s", journal.String())
	}
	// the same route answers a POST
	r, err := http.Post(base+"/responses", "application/json", strings.NewReader(`{"model":"m","input":"hi","stream":true}`))
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("POST: %v %v", r, err)
	}
	r.Body.Close()
}

// TestWebSocketOnlyOnResponses: an upgrade on another format's path is no
// WebSocket.
func TestWebSocketOnlyOnResponses(t *testing.T) {
	ws := &wsServer{}
	base := serveOn(t, &Server{Route: ws.route(Fault{}), Log: ws})
	_, resp, err := websocket.Dial(context.Background(), wsURL(base, "/chat/completions"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("Dial: %v, %v; want 405", resp, err)
	}
}

// TestWebSocketBadInput: each bad input ends the connection with its close
// code and a log line, and the server holds no connection after it.
func TestWebSocketBadInput(t *testing.T) {
	tests := []struct {
		name string
		send func(c *websocket.Conn) error
		code websocket.StatusCode
		log  string
	}{
		{"not JSON", func(c *websocket.Conn) error {
			return c.Write(context.Background(), websocket.MessageText, []byte("hello"))
		}, websocket.StatusInvalidFramePayloadData,
			`agentvcr serve: websocket /v1/responses: closed 1007: the frame is not JSON: invalid character 'h' looking for beginning of value: "hello"`},
		{"not an object", func(c *websocket.Conn) error {
			return c.Write(context.Background(), websocket.MessageText, []byte(`["response.create"]`))
		}, websocket.StatusInvalidFramePayloadData,
			`agentvcr serve: websocket /v1/responses: closed 1007: the frame is not a JSON object: it starts with [: "[\"response.create\"]"`},
		{"two objects", func(c *websocket.Conn) error {
			return c.Write(context.Background(), websocket.MessageText, []byte(wsFirst+"\n"+wsFirst))
		}, websocket.StatusInvalidFramePayloadData,
			`agentvcr serve: websocket /v1/responses: closed 1007: the frame is not JSON: more follows the object:`},
		{"binary", func(c *websocket.Conn) error {
			return c.Write(context.Background(), websocket.MessageBinary, []byte(wsFirst))
		}, websocket.StatusUnsupportedData,
			`agentvcr serve: websocket /v1/responses: closed 1003: a binary frame (121 bytes); the Responses API takes JSON text frames`},
		{"over the cap", func(c *websocket.Conn) error {
			return c.Write(context.Background(), websocket.MessageText, bytes.Repeat([]byte("x"), 2048))
		}, websocket.StatusMessageTooBig,
			`agentvcr serve: websocket /v1/responses: closed 1009: a frame over 1024 bytes (Server.MaxBody)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := &wsServer{}
			s := &Server{Route: ws.route(Fault{}), Log: ws, MaxBody: 1024}
			base := serveOn(t, s)
			c := dial(t, wsURL(base, "/responses"))
			if err := tt.send(c); err != nil {
				t.Fatal(err)
			}
			_, _, err := c.Read(context.Background())
			if got := websocket.CloseStatus(err); got != tt.code {
				t.Errorf("closed with %v (%v), want %v", got, err, tt.code)
			}
			waitFor(t, func() bool { return s.WebSockets() == 0 && strings.Contains(ws.logged(), tt.log) }, func() string {
				return fmt.Sprintf("%d connections held; log:\n%s\nwant a line with %s", s.WebSockets(), ws.logged(), tt.log)
			})
			if len(ws.seen) != 0 {
				t.Errorf("Answer saw %d requests", len(ws.seen))
			}
		})
	}
}

func waitFor(t *testing.T, ok func() bool, why func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal(why())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWebSocketClientThatNeverReads: a client that sends a request and
// reads nothing has its connection closed once a frame's write waits past
// FrameWriteTimeout; the server holds nothing for it after.
func TestWebSocketClientThatNeverReads(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 64<<10)
	var stream bytes.Buffer
	stream.WriteString("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\"}}\n\n")
	for range 200 { // 12.8 MB of events: more than the sockets' buffers
		fmt.Fprintf(&stream, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":%q}\n\n", big)
	}
	ws := &wsServer{}
	s := &Server{Log: ws, FrameWriteTimeout: 200 * time.Millisecond, Route: func(string) (*Route, error) {
		return &Route{Answer: func(Request) (Reply, error) { return Reply{Body: stream.Bytes()}, nil }}, nil
	}}
	base := serveOn(t, s)
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	waitFor(t, func() bool {
		return s.WebSockets() == 0 && strings.Contains(ws.logged(), "agentvcr serve: websocket /v1/responses: closed: the client read nothing for 200ms (Server.FrameWriteTimeout)")
	}, func() string { return fmt.Sprintf("%d connections held; log:\n%s", s.WebSockets(), ws.logged()) })
}

// TestWebSocketThousandConnections: of 1,000 connections opened at once,
// MaxWebSockets are held and each one over is closed with 1013 and a log
// line; the server holds none once the clients close theirs.
func TestWebSocketThousandConnections(t *testing.T) {
	ws := &wsServer{}
	s := &Server{Route: ws.route(Fault{}), Log: ws, MaxWebSockets: 100}
	base := serveOn(t, s)
	var mu sync.Mutex
	codes := map[websocket.StatusCode]int{}
	var conns []*websocket.Conn
	var wg sync.WaitGroup
	for range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, _, err := websocket.Dial(ctx, wsURL(base, "/responses"), nil)
			if err != nil {
				t.Error(err)
				return
			}
			read, stop := context.WithTimeout(context.Background(), 2*time.Second)
			defer stop()
			_, _, err = c.Read(read)
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(err, context.DeadlineExceeded) {
				codes[0]++ // held: nothing to read
				conns = append(conns, c)
				return
			}
			codes[websocket.CloseStatus(err)]++
		}()
	}
	wg.Wait()
	if codes[0] != 100 || codes[websocket.StatusTryAgainLater] != 900 {
		t.Errorf("held %d, closed 1013 %d, other %v; want 100 and 900", codes[0], codes[websocket.StatusTryAgainLater], codes)
	}
	if n := strings.Count(ws.logged(), "closed 1013: 100 connections are open already (Server.MaxWebSockets)"); n != 900 {
		t.Errorf("%d log lines for the refused, want 900", n)
	}
	for _, c := range conns {
		c.CloseNow()
	}
	waitFor(t, func() bool { return s.WebSockets() == 0 }, func() string { return fmt.Sprintf("%d connections held", s.WebSockets()) })
}

// TestWebSocketStopClosesConnections: stop ends the connections it
// hijacked, as it ends HTTP streams.
func TestWebSocketStopClosesConnections(t *testing.T) {
	ws := &wsServer{}
	s := &Server{Route: ws.route(Fault{Kind: FaultStall, After: 1})}
	base, stop, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := c.Read(ctx); err != nil { // the one event before the stall
		t.Fatal(err)
	}
	stop()
	if _, _, err := c.Read(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("after stop, Read: %v; want the connection closed", err)
	}
}

// TestWebSocketStreamThatStopsShort: a reply that ends before its
// response did (no completed, failed or incomplete) ends the connection
// with 1000 and a log line, as an HTTP body would end.
func TestWebSocketStreamThatStopsShort(t *testing.T) {
	clean := wsStream("resp_1", true)
	short := clean[:bytes.Index(clean, []byte("event: response.completed"))]
	ws := &wsServer{}
	base := serveOn(t, &Server{Log: ws, Route: func(string) (*Route, error) {
		return &Route{Answer: func(Request) (Reply, error) { return Reply{Body: short}, nil }}, nil
	}})
	c := dial(t, wsURL(base, "/responses"))
	write(t, c, wsFirst)
	frames, err := readCycle(t, c)
	if want := Frames(clean)[:3]; !cmp.Equal(frames, want) {
		t.Errorf("frames (-got +want):\n%s", cmp.Diff(frames, want))
	}
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("ended with %v, want a close frame 1000", err)
	}
	if want := "agentvcr serve: websocket /v1/responses: closed 1000: the stream ended before its response did (no response.completed, failed or incomplete)"; !strings.Contains(ws.logged(), want) {
		t.Errorf("log:\n%s\nwant %s", ws.logged(), want)
	}
}
