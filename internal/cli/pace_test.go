package cli

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// agentvcr record keeps when each event arrived; agentvcr serve -pace
// recorded sends each no sooner than that (a lower bound: no speed is
// asserted), the bytes as recorded and no timing header to the client.
func TestRecordThenServeAtTheRecordedPace(t *testing.T) {
	t.Parallel() // it waits out the recorded pace: let the others run meanwhile
	const gap = 150 * time.Millisecond
	first := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
	rest := "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, first)
		w.(http.Flusher).Flush()
		time.Sleep(gap)
		io.WriteString(w, rest)
	}))
	defer upstream.Close()
	dir := t.TempDir()
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`
	post := func(base string) (at []time.Duration, got string, header http.Header) {
		t.Helper()
		start := time.Now()
		resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		var all strings.Builder
		for {
			line, err := r.ReadString('\n')
			all.WriteString(line)
			if strings.HasPrefix(line, "data: ") {
				at = append(at, time.Since(start))
			}
			if err != nil {
				break
			}
		}
		return at, all.String(), resp.Header
	}

	base, stop := startRecord(t, dir, nil, "-upstream", upstream.URL+"/v1", "-o", "paced.yaml")
	post(base)
	if code, stderr := stop(); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "paced.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := cassette.TimedInteractions(data); n != 1 || err != nil {
		t.Fatalf("%d timed interactions (%v):\n%s", n, err, data)
	}

	paced, _ := startServe(t, dir, "-cassette", "paced.yaml", "-pace", "recorded")
	at, got, header := post(paced)
	if len(at) != 3 || at[1] < gap || got != first+rest || header.Get(cassette.EventTimesHeader) != "" {
		t.Errorf("-pace recorded: events at %v, want the second %s or more after the request; body %q; header %v", at, gap, got, header)
	}
	slow, _ := startServe(t, dir, "-cassette", "paced.yaml", "-pace", "recorded", "-speed", "0.5")
	if at, _, _ := post(slow); len(at) != 3 || at[1] < 2*gap {
		t.Errorf("-speed 0.5: events at %v, want the second %s or more after the request", at, 2*gap)
	}
}
