package agent_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/racetest"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

// guard bounds a test that would hang without the fix: the run's context
// ends long after the timeouts under test, so reaching it is a failure.
func guard(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// waits records retry waits instead of sleeping.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// liveClient is a client of url through a LiveTransport whose timeouts only
// a silent server reaches (the timeout tests shorten them).
func liveClient(url string, retries int, w *waits) *agent.Client {
	lt := &agent.LiveTransport{HeaderTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second, Retries: retries}
	if w != nil {
		lt.SetSleep(w.sleep)
	}
	return &agent.Client{BaseURL: url + "/v1", Model: "m", HTTPClient: &http.Client{Transport: lt}, Format: chat.Format}
}

const okStream = "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

// silentListener accepts connections and never answers; it counts them.
func silentListener(t *testing.T) (url string, accepted *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = new(atomic.Int32)
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String(), accepted
}

// A gateway that accepts the connection and never answers: the header
// timeout ends each attempt, and the retries are bounded. The gateway never
// answers, so the timeout only has to outlast a loopback connect.
func TestLiveHeaderTimeout(t *testing.T) {
	t.Parallel()
	url, accepted := silentListener(t)
	w := &waits{}
	c := liveClient(url, 1, w)
	timeout := 150 * time.Millisecond * racetest.Slow
	c.HTTPClient.Transport.(*agent.LiveTransport).HeaderTimeout = timeout
	_, err := c.Complete(guard(t), nil, nil)
	var te *agent.TimeoutError
	if !errors.As(err, &te) || te.Idle {
		t.Fatalf("err = %v, want a header *TimeoutError", err)
	}
	if diff := cmp.Diff("sending request: Post \""+url+"/v1/chat/completions\": no response headers from the gateway within "+timeout.String()+" (after 2 attempts)", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if n := accepted.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (one retry)", n)
	}
	if len(w.all()) != 1 {
		t.Errorf("waits %v, want one", w.all())
	}
}

// stallingServer sends the given prefix of a stream, flushes, and then
// stays silent until the test ends; it counts requests.
func stallingServer(t *testing.T, prefix string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	done := make(chan struct{})
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, prefix)
		w.(http.Flusher).Flush()
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv, n
}

// Headers then silence, and one event then silence: the idle timeout ends
// the stream, the partial turn is kept, and nothing is retried once the
// response was handed on. Each server stays silent after its prefix, so
// the cases wait side by side.
func TestLiveIdleTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason   string
		prefix   string
		wantText string
	}{
		{"stall after the headers", "", ""},
		{"stall between events", "data: {\"choices\":[{\"delta\":{\"content\":\"par\"}}]}\n\n", "par"},
		{"keep-alive comments do not hide a stall inside a line", ": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"tial", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			srv, n := stallingServer(t, tt.prefix)
			c := liveClient(srv.URL, 2, &waits{})
			timeout := 150 * time.Millisecond * racetest.Slow
			c.HTTPClient.Transport.(*agent.LiveTransport).IdleTimeout = timeout
			turn, err := c.Complete(guard(t), nil, nil)
			var te *agent.TimeoutError
			if !errors.As(err, &te) || !te.Idle {
				t.Fatalf("err = %v, want an idle *TimeoutError", err)
			}
			if diff := cmp.Diff("reading stream: the stream stalled: no event for "+timeout.String(), err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if turn == nil || turn.Text != tt.wantText {
				t.Errorf("partial turn %+v, want text %q", turn, tt.wantText)
			}
			if got := n.Load(); got != 1 {
				t.Errorf("%d requests, want 1: a stream is never retried", got)
			}
		})
	}
}

// A stream that takes longer than the idle timeout in total, but sends an
// event more often than it, is never cut: six gaps of a quarter of the
// timeout last one and a half timeouts.
func TestLiveIdleTimeoutRestartsPerEvent(t *testing.T) {
	t.Parallel()
	idle := 400 * time.Millisecond * racetest.Slow
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range 6 {
			fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(idle / 4)
		}
		fmt.Fprint(w, okStream)
	}))
	defer srv.Close()
	lt := &agent.LiveTransport{IdleTimeout: idle}
	c := &agent.Client{BaseURL: srv.URL, HTTPClient: &http.Client{Transport: lt}, Format: chat.Format}
	turn, err := c.Complete(guard(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if turn.Text != "aaaaaaok" {
		t.Errorf("text %q", turn.Text)
	}
}

// scriptedStatuses answers the statuses in order (then 200 with okStream),
// each with the given headers.
func scriptedStatuses(t *testing.T, headers http.Header, statuses ...int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) {
			for k, vs := range headers {
				w.Header()[k] = vs
			}
			w.WriteHeader(statuses[i])
			fmt.Fprintf(w, `{"error":{"message":"status %d"}}`, statuses[i])
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, okStream)
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

func TestLiveRetries(t *testing.T) {
	future := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		reason     string
		headers    http.Header
		statuses   []int
		retries    int
		wantStatus int // 0: the stream merged
		wantReqs   int32
		minWait    []time.Duration // the waits, each within [min, max]
		maxWait    []time.Duration
	}{
		{"429 then OK, Retry-After in seconds", http.Header{"Retry-After": {"2"}}, []int{429}, 2, 0, 2,
			[]time.Duration{2 * time.Second}, []time.Duration{2 * time.Second}},
		{"429 then OK, Retry-After as an HTTP date", http.Header{"Retry-After": {future}}, []int{429}, 2, 0, 2,
			[]time.Duration{28 * time.Second}, []time.Duration{30 * time.Second}},
		{"Retry-After-Ms wins", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, []int{503}, 2, 0, 2,
			[]time.Duration{250 * time.Millisecond}, []time.Duration{250 * time.Millisecond}},
		{"a Retry-After over 60 s is not honoured: backoff", http.Header{"Retry-After": {"3600"}}, []int{429}, 2, 0, 2,
			[]time.Duration{375 * time.Millisecond}, []time.Duration{500 * time.Millisecond}},
		{"500 x 3 with 2 retries: the last answer is the error, backoff doubles", nil, []int{500, 500, 500}, 2, 500, 3,
			[]time.Duration{375 * time.Millisecond, 750 * time.Millisecond}, []time.Duration{500 * time.Millisecond, time.Second}},
		{"502, 503, 504 then OK", nil, []int{502, 503, 504}, 3, 0, 4,
			[]time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond}, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}},
		{"408 and 409 are retried", nil, []int{408, 409}, 2, 0, 3,
			[]time.Duration{375 * time.Millisecond, 750 * time.Millisecond}, []time.Duration{500 * time.Millisecond, time.Second}},
		{"x-should-retry: false is obeyed", http.Header{"X-Should-Retry": {"false"}}, []int{503}, 2, 503, 1, nil, nil},
		{"x-should-retry: true retries a 400", http.Header{"X-Should-Retry": {"true"}}, []int{400}, 2, 0, 2,
			[]time.Duration{375 * time.Millisecond}, []time.Duration{500 * time.Millisecond}},
		{"400, 401, 404 are not retried", nil, []int{401}, 2, 401, 1, nil, nil},
		{"no retries asked for", nil, []int{429}, 0, 429, 1, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			srv, n := scriptedStatuses(t, tt.headers, tt.statuses...)
			w := &waits{}
			turn, err := liveClient(srv.URL, tt.retries, w).Complete(guard(t), nil, nil)
			if tt.wantStatus == 0 {
				if err != nil || turn.Text != "ok" {
					t.Fatalf("turn %+v, err %v; want the stream merged", turn, err)
				}
			} else {
				var he *agent.HTTPError
				if !errors.As(err, &he) || he.StatusCode != tt.wantStatus {
					t.Fatalf("err = %v, want HTTP %d", err, tt.wantStatus)
				}
			}
			if got := n.Load(); got != tt.wantReqs {
				t.Errorf("%d requests, want %d", got, tt.wantReqs)
			}
			got := w.all()
			if len(got) != len(tt.minWait) {
				t.Fatalf("waits %v, want %d", got, len(tt.minWait))
			}
			for i, d := range got {
				if d < tt.minWait[i] || d > tt.maxWait[i] {
					t.Errorf("wait %d is %v, want within [%v, %v]", i+1, d, tt.minWait[i], tt.maxWait[i])
				}
			}
		})
	}
}

// A connection that is accepted and closed at once is a connection error:
// retried, then reported with the number of attempts.
func TestLiveRetriesConnectionErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	w := &waits{}
	_, err = liveClient("http://"+ln.Addr().String(), 2, w).Complete(guard(t), nil, nil)
	if err == nil || !strings.HasSuffix(err.Error(), "(after 3 attempts)") {
		t.Fatalf("err = %v, want a connection error after 3 attempts", err)
	}
	if n := accepted.Load(); n != 3 {
		t.Errorf("%d connections, want 3", n)
	}
	if len(w.all()) != 2 {
		t.Errorf("waits %v, want 2", w.all())
	}
}

// A stream cut short after an event is never retried: part of it was used.
func TestLiveNoRetryAfterPartOfStream(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"half\"}}]}\n\n")
	}))
	defer srv.Close()
	turn, err := liveClient(srv.URL, 2, &waits{}).Complete(guard(t), nil, nil)
	if !errors.Is(err, agent.ErrTruncatedStream) || turn.Text != "half" {
		t.Fatalf("turn %+v, err %v; want the half turn and ErrTruncatedStream", turn, err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

// A cancelled run is not retried and does not wait out the backoff.
func TestLiveRetryStopsOnCancel(t *testing.T) {
	srv, n := scriptedStatuses(t, http.Header{"Retry-After": {"30"}}, 503, 503, 503)
	ctx, cancel := context.WithCancel(guard(t))
	c := liveClient(srv.URL, 2, nil)
	c.HTTPClient.Transport.(*agent.LiveTransport).SetSleep(func(context.Context, time.Duration) error {
		cancel()
		return context.Canceled
	})
	_, err := c.Complete(ctx, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n.Load() != 1 {
		t.Errorf("%d requests, want 1", n.Load())
	}
}

// A gzip body that inflates far past the limit, and a stream that never
// ends, stop at MaxBodyBytes with ErrBodyTooLarge; the turn holds only what
// was merged before.
func TestLiveBodyLimit(t *testing.T) {
	t.Parallel()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	event := []byte("data: {\"choices\":[{\"delta\":{\"content\":\"\"}}]}\n\n")
	for written := 0; written < 8<<20; written += len(event) {
		zw.Write(event)
	}
	zw.Close()
	done := make(chan struct{})
	defer close(done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.URL.Path == "/gzip/chat/completions" {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
			return
		}
		for {
			select {
			case <-done:
				return
			case <-r.Context().Done():
				return
			default:
			}
			if _, err := w.Write(event); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	if gz.Len() > 1<<20 {
		t.Fatalf("gzip body is %d bytes, want under 1 MiB", gz.Len())
	}
	for _, path := range []string{"/gzip", "/endless"} {
		lt := &agent.LiveTransport{MaxBodyBytes: 2 << 20}
		c := &agent.Client{BaseURL: srv.URL + path, HTTPClient: &http.Client{Transport: lt}, Format: chat.Format}
		turn, err := c.Complete(guard(t), nil, nil)
		if !errors.Is(err, agent.ErrBodyTooLarge) {
			t.Fatalf("%s: err = %v, want ErrBodyTooLarge", path, err)
		}
		if diff := cmp.Diff("reading stream: response body too large: more than 2 MiB", err.Error()); diff != "" {
			t.Errorf("%s: message (-want +got):\n%s", path, diff)
		}
		if turn.Text != "" {
			t.Errorf("%s: turn text %d bytes", path, len(turn.Text))
		}
	}
}

// A body of exactly the limit is read whole.
func TestLiveBodyAtLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, okStream)
	}))
	defer srv.Close()
	lt := &agent.LiveTransport{MaxBodyBytes: int64(len(okStream))}
	c := &agent.Client{BaseURL: srv.URL, HTTPClient: &http.Client{Transport: lt}, Format: chat.Format}
	turn, err := c.Complete(guard(t), nil, nil)
	if err != nil || turn.Text != "ok" {
		t.Fatalf("turn %+v, err %v", turn, err)
	}
}

// gzipMember is b compressed as one gzip member; members concatenated are
// one gzip stream of their contents concatenated.
func gzipMember(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// With the default limits, a gzip body that would inflate to 1 GiB stops at
// the first limit it reaches: one line that never ends at MaxEventBytes,
// a stream of small events at DefaultMaxBodyBytes. The server sends the
// same compressed 1 MiB member again and again until the client gives up.
func TestLiveGzipBombDefaults(t *testing.T) {
	t.Parallel()
	event := []byte("data: {\"choices\":[],\"pad\":\"" + strings.Repeat("p", 4000) + "\"}\n\n")
	members := map[string][2][]byte{ // path: first member, repeated member
		"/line/chat/completions":   {gzipMember([]byte("data: ")), gzipMember(bytes.Repeat([]byte("x"), 1<<20))},
		"/events/chat/completions": {gzipMember(nil), gzipMember(bytes.Repeat(event, (1<<20)/len(event)))},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		m := members[r.URL.Path]
		w.Write(m[0])
		for range 1024 { // 1 GiB inflated
			if _, err := w.Write(m[1]); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}))
	defer srv.Close()
	tests := []struct {
		path string
		want error
		msg  string
	}{
		{"/line", agent.ErrEventTooLarge, "reading stream: one server-sent event is larger than 16 MiB (the limit of one event)"},
		{"/events", agent.ErrBodyTooLarge, "reading stream: response body too large: more than 64 MiB"},
	}
	for _, tt := range tests {
		c := &agent.Client{BaseURL: srv.URL + tt.path, HTTPClient: &http.Client{Transport: &agent.LiveTransport{}}, Format: chat.Format}
		_, err := c.Complete(guard(t), nil, nil)
		if !errors.Is(err, tt.want) {
			t.Fatalf("%s: err = %v, want %v", tt.path, err, tt.want)
		}
		if diff := cmp.Diff(tt.msg, err.Error()); diff != "" {
			t.Errorf("%s: message (-want +got):\n%s", tt.path, diff)
		}
	}
}
