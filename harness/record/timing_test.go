package record

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

func TestEventTimesFromReads(t *testing.T) {
	sse := http.Header{"Content-Type": {"text/event-stream; charset=utf-8"}}
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, m := range v {
			out = append(out, time.Duration(m)*time.Millisecond)
		}
		return out
	}
	body := []byte("data: 1\n\ndata: 2\n\ndata: [DONE]\n\n") // events end at 9, 18 and 32
	for _, tt := range []struct {
		reason string
		header http.Header
		reads  []arrival
		want   []time.Duration
	}{
		{"one read per event", sse, []arrival{{9, 5 * time.Millisecond}, {18, 7 * time.Millisecond}, {32, 30 * time.Millisecond}}, ms(5, 7, 30)},
		{"two events in one read", sse, []arrival{{18, 5 * time.Millisecond}, {32, 9 * time.Millisecond}}, ms(5, 5, 9)},
		{"an event across reads: its last byte's", sse, []arrival{{4, 1 * time.Millisecond}, {12, 3 * time.Millisecond}, {32, 8 * time.Millisecond}}, ms(3, 8, 8)},
		{"not a stream", http.Header{"Content-Type": {"application/json"}}, []arrival{{32, time.Millisecond}}, nil},
		{"compressed: the reads are not the text's bytes", http.Header{"Content-Type": {"text/event-stream"}, "Content-Encoding": {"gzip"}}, []arrival{{32, time.Millisecond}}, nil},
	} {
		if got := eventTimes(tt.header, body, tt.reads); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// record keeps when each event arrived, in place of any header of that
// name the upstream sent; an answer that is no stream gets none.
//
// The upstream holds its second event until the client has read the first
// through the proxy, and then waits gap more: so the proxy read the first
// event at least gap before the second, however late the machine ran either
// read. (A plain sleep after the first flush proved only that on a quiet
// machine: under -race the first read once came 7 ms late and the recorded
// gap was 75 ms.)
func TestRecordingProxyKeepsEventTimes(t *testing.T) {
	const gap = 80 * time.Millisecond
	firstRead := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(cassette.EventTimesHeader, "1,2,3,4,5")
		if strings.HasSuffix(r.URL.Path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"data":[]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-firstRead:
		case <-time.After(10 * time.Second):
			t.Error("the client never read the first event: the proxy held it back")
		}
		time.Sleep(gap)
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, base, stop := proxyOn(t, upstream.URL+"/v1", path)
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	stream := bufio.NewReader(resp.Body)
	for line := ""; line != "\n"; {
		if line, err = stream.ReadString('\n'); err != nil {
			t.Fatalf("reading the first event: %v", err)
		}
	}
	close(firstRead)
	io.ReadAll(stream)
	resp.Body.Close()
	if resp, err = http.Get(base + "/models"); err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
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
	if len(c.Interactions) != 2 {
		t.Fatalf("%d interactions recorded", len(c.Interactions))
	}
	at, err := cassette.ParseEventTimes(c.Interactions[0].Response.Headers.Get(cassette.EventTimesHeader))
	if err != nil || len(at) != 3 || at[1]-at[0] < gap || at[2] < at[1] {
		t.Errorf("the stream's event times %v (%v): want 3, the second %s or more after the first\n%s", at, err, gap, data)
	}
	if h := c.Interactions[1].Response.Headers; h.Get(cassette.EventTimesHeader) != "" || len(h) != 1 {
		t.Errorf("the JSON answer was recorded with the headers %v, want Content-Type alone", h)
	}
}
