package record

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/gateway"
)

// proxyOn serves a recording proxy of upstream over loopback, recording to
// path.
func proxyOn(t *testing.T, upstream, path string) (*Proxy, string, func()) {
	t.Helper()
	p, err := NewProxy(upstream, path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	return p, srv.URL + "/v1", srv.Close
}

func TestRecordingProxyStreamsBeforeTheUpstreamFinishes(t *testing.T) {
	first := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
	rest := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, first)
		w.(http.Flusher).Flush()
		<-release // the rest only once the client has seen the first event
		io.WriteString(w, rest)
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, base, stop := proxyOn(t, upstream.URL+"/v1", path)

	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := make(chan string, 1)
	r := bufio.NewReader(resp.Body)
	go func() {
		var ev strings.Builder
		for !strings.HasSuffix(ev.String(), "\n\n") {
			line, err := r.ReadString('\n')
			ev.WriteString(line)
			if err != nil {
				break
			}
		}
		got <- ev.String()
	}()
	wait := 10 * time.Second
	if d, ok := t.Deadline(); ok {
		wait = time.Until(d) / 2
	}
	select {
	case ev := <-got:
		if ev != first {
			t.Fatalf("first event %q, want %q", ev, first)
		}
	case <-time.After(wait):
		close(release)
		t.Fatal("the client saw no event while the upstream held the rest: the proxy buffers")
	}
	close(release)
	tail, err := io.ReadAll(r)
	if err != nil || string(tail) != rest {
		t.Fatalf("rest %q, %v; want %q", tail, err, rest)
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := decodeSaved(t, data)
	if len(c.Interactions) != 1 || c.Interactions[0].Response.Body != first+rest || c.Interactions[0].Request.URL != upstream.URL+"/v1/chat/completions" {
		t.Errorf("recorded %d interactions; first: %+v", len(c.Interactions), c.Interactions[0])
	}
}

func TestRecordingProxyKeepsEveryKeyOffDisk(t *testing.T) {
	const (
		bearer = "sk-test-proxy-bearer-0123456789abcdef"
		xKey   = "xk-test-proxy-x-api-key-42"
		azure  = "az-test-proxy-api-key-77"
	)
	gw := gateway.New(bearer, gateway.Script{Name: "m", Turns: []gateway.ScriptTurn{{Text: "ok"}}})
	gwURL, gwStop := gw.Start()
	defer gwStop()
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	p, base, stop := proxyOn(t, gwURL, path)

	// The prompt quotes the two header keys: they are secrets too, so the
	// recorded body says REDACTED where they were.
	body := `{"model":"m","messages":[{"role":"user","content":"keys ` + xKey + ` and ` + azure + `"}],"stream":true}`
	req, err := http.NewRequest(http.MethodPost, base+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("X-Api-Key", xKey)
	req.Header.Set("Api-Key", azure)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"content":"ok"`) {
		t.Fatalf("through the proxy: %d %s (the gateway checks the forwarded key)", resp.StatusCode, answer)
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		for _, key := range []string{bearer, xKey, azure} {
			if bytes.Contains(data, []byte(key)) {
				t.Errorf("%s holds the key %s", path, key)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `keys REDACTED and REDACTED`) {
		t.Errorf("the recorded prompt is not redacted:\n%s", data)
	}
}

func TestRecordingProxyNothingRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, err := NewProxy("http://127.0.0.1:1/v1", path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(); !errors.Is(err, cassette.ErrEmptyRecording) {
		t.Errorf("Stop = %v, want ErrEmptyRecording", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an empty recording wrote %s", path)
	}
	for _, bad := range []string{"", "ftp://x/v1", "/v1", "http://"} {
		if _, err := NewProxy(bad, path, nil, nil); err == nil || err.Error() != `upstream "`+bad+`" is not an http(s) base URL such as https://api.openai.com/v1` {
			t.Errorf("NewProxy(%q): %v", bad, err)
		}
	}
}

// An agent sends its next request as soon as it reads [DONE], while the
// upstream may still be closing the previous answer: the recording keeps
// the order in which the requests arrived.
func TestRecordingProxyRecordsInArrivalOrder(t *testing.T) {
	done := "data: [DONE]\n\n"
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, done)
		w.(http.Flusher).Flush()
		if strings.Contains(string(body), `"first"`) {
			<-release // the first answer ends only after the second one did
		}
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, base, stop := proxyOn(t, upstream.URL+"/v1", path)

	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"first"}`))
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "data: [DONE]\n" {
		t.Fatalf("first answer: %q, %v", line, err)
	}
	second, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"second"}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, second.Body)
	second.Body.Close()
	if n := p.Recorded(); n != 0 {
		t.Errorf("recorded %d before the first answer ended, want 0 (the second waits for the first)", n)
	}
	close(release)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := decodeSaved(t, data)
	var order []string
	for _, in := range c.Interactions {
		order = append(order, in.Request.Body)
	}
	if want := []string{`{"model":"first"}`, `{"model":"second"}`}; !slices.Equal(order, want) {
		t.Errorf("recorded %q, want %q", order, want)
	}
}

func TestExchangeOrderCommitsInSlotOrder(t *testing.T) {
	var o exchangeOrder
	var got []string
	commit := func(r *http.Request) { got = append(got, r.URL.Path) }
	req := func(path string) *http.Request { return httptest.NewRequest("POST", path, nil) }
	a, b, c, d := o.take(), o.take(), o.take(), o.take()
	o.done(c, req("/c"), commit)
	o.done(b, nil, commit) // b had nothing to record
	if len(got) != 0 {
		t.Fatalf("committed %q while slot a is open", got)
	}
	o.done(a, req("/a"), commit)
	if want := []string{"/a", "/c"}; !slices.Equal(got, want) {
		t.Fatalf("committed %q, want %q", got, want)
	}
	o.done(d, req("/d"), commit)
	if want := []string{"/a", "/c", "/d"}; !slices.Equal(got, want) {
		t.Errorf("committed %q, want %q", got, want)
	}
	if len(o.ended) != 0 || o.next != 4 {
		t.Errorf("left %d slots uncommitted, next %d", len(o.ended), o.next)
	}
}

// Ctrl-C while one stream is stalled: the server is closed, Stop cuts the
// stalled exchange off (not recorded) and still saves the one that ended
// after it began, which waited for it to keep the arrival order.
func TestRecordingProxyStopKeepsWhatEndedBehindAStalledStream(t *testing.T) {
	done := "data: [DONE]\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if strings.Contains(string(body), `"stalled"`) {
			io.WriteString(w, ": waiting\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // until the proxy gives up on it
			return
		}
		io.WriteString(w, done)
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, err := NewProxy(upstream.URL+"/v1", path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: p}
	go srv.Serve(ln)
	base := "http://" + ln.Addr().String() + "/v1"

	stalled, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"stalled"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Body.Close()
	if line, err := bufio.NewReader(stalled.Body).ReadString('\n'); err != nil || line != ": waiting\n" {
		t.Fatalf("stalled stream: %q, %v", line, err)
	}
	second, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"second"}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, second.Body)
	second.Body.Close()
	srv.Close() // as record does when the grace period ends
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := decodeSaved(t, data)
	if len(c.Interactions) != 1 || c.Interactions[0].Request.Body != `{"model":"second"}` || p.Recorded() != 1 {
		t.Errorf("recorded %d (%d interactions), want only the second exchange", p.Recorded(), len(c.Interactions))
	}
}

// decodeSaved reads a saved cassette's bytes.
func decodeSaved(t *testing.T, data []byte) *vcr.Cassette {
	t.Helper()
	c, err := cassette.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
