package serve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// stalled sends n bytes, then fails as a client that went silent does.
type stalled struct{ n int }

var errSilent = errors.New("the client went silent")

func (s *stalled) Read(p []byte) (int, error) {
	if s.n == 0 {
		return 0, errSilent
	}
	n := min(len(p), s.n)
	for i := range p[:n] {
		p[i] = 'x'
	}
	s.n -= n
	return n, nil
}

// What a client that sends 16 MiB of a body and goes silent holds is what
// it sent and at most one chunk more: a budget that leaves room for
// exactly that lets the read go on to the client's silence, and one a
// byte under what was sent stops it; everything taken is given back.
func TestReadAllHoldsWhatArrived(t *testing.T) {
	const sent = 16 << 20
	var room int // what the chunks take to hold sent bytes
	for next, held := bodyChunk+512, 0; held <= sent; next = min(max(2*next, bodyChunk), bodyChunkMax) {
		room += next
		held += next
	}
	if room > sent+bodyChunkMax+bodyChunk+512 {
		t.Fatalf("the chunks for %d bytes take %d", sent, room)
	}
	b := &bodyBudget{limit: room}
	if _, err := readAll(&stalled{n: sent}, bodyChunk, b); !errors.Is(err, errSilent) {
		t.Errorf("with room for %d bytes: %v, want the client's silence", room, err)
	}
	b = &bodyBudget{limit: sent - 1}
	if _, err := readAll(&stalled{n: sent}, bodyChunk, b); !errors.Is(err, ErrBodiesFull) {
		t.Errorf("with room for less than was sent: %v, want ErrBodiesFull", err)
	}
	if b.used != 0 {
		t.Errorf("%d bytes still taken after the reads", b.used)
	}
	body, err := readAll(strings.NewReader(strings.Repeat("y", 3<<20+7)), bodyChunk, &bodyBudget{limit: 8 << 20})
	if err != nil || len(body) != 3<<20+7 || strings.Trim(string(body), "y") != "" {
		t.Errorf("a whole 3 MiB body: %d bytes, %v", len(body), err)
	}
}

// Slow clients together hold no more than MaxBodyTotal: past it a request
// is answered 503 with Retry-After in its format's error shape, and once
// the slow ones are dropped (ReadTimeout) the room is there again.
func TestServeBoundsBodiesTogether(t *testing.T) {
	router := &CassetteRouter{Cassettes: servedCassettes(t, "parallel")}
	base := serveOn(t, &Server{Route: router.Route, ReadTimeout: 500 * time.Millisecond, MaxBodyTotal: 2 << 20})
	host := strings.TrimPrefix(strings.TrimSuffix(base, "/v1"), "http://")
	head := fmt.Sprintf("POST /v1/chat/completions HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", host, 8<<20)
	var wg sync.WaitGroup
	results := make([]string, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", host)
			if err != nil {
				results[i] = err.Error()
				return
			}
			defer conn.Close()
			// 700 KiB each: three fit in 2 MiB with their chunks, six do not
			if _, err := io.WriteString(conn, head+strings.Repeat(" ", 700<<10)); err != nil {
				results[i] = "write: " + err.Error()
				return
			}
			conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				results[i] = "no answer: " + err.Error()
				return
			}
			body, _ := io.ReadAll(resp.Body)
			results[i] = fmt.Sprintf("%d %s %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}()
	}
	wg.Wait()
	full := `503 1 {"error":{"code":"overloaded","message":"cannot read the request body: the request bodies still arriving hold the server's bound: 2097152 bytes together (agentvcr serve -max-body-total)","type":"invalid_request_error"}}` + "\n"
	counts := map[string]int{}
	for _, r := range results {
		switch {
		case r == full:
			counts["503"]++
		case strings.HasPrefix(r, "408 "):
			counts["408"]++
		default:
			t.Errorf("a slow client got: %s", r)
		}
	}
	if counts["503"] == 0 || counts["408"] == 0 {
		t.Errorf("answers %v: want some dropped as slow (408) and the rest refused past the bound (503)", counts)
	}
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"parallel","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		t.Errorf("after the slow clients were dropped, a request is still refused: %d", resp.StatusCode)
	}
}
