package serve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/bareserver"
	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// BenchmarkServe replays the parallel cassette's first turn (text and two
// tool calls, 19 events) to 1, 16 and 128 concurrent clients over loopback,
// matched by body, each client on its own keep-alive connection. replays/s
// counts whole streams read by the clients; the clients share the cores.
// cpu-µs/op is the CPU time of the whole process (server and clients) per
// replay, the figure to compare on a loaded machine.
// flush=bare is the same stream from a bare net/http server that flushes
// per event (bareServer), the floor of flush=event.
func BenchmarkServe(b *testing.B) {
	c := vcr.New("")
	if err := yaml.Unmarshal(servedCassettes(b, "parallel")[0].Data, c); err != nil {
		b.Fatal(err)
	}
	reqBody, want := []byte(c.Interactions[0].Request.Body), c.Interactions[0].Response.Body
	for _, coalesce := range []bool{false, true} {
		router := &CassetteRouter{Cassettes: servedCassettes(b, "parallel"), Coalesce: coalesce}
		base := serveOn(b, &Server{Route: router.Route})
		url := ScenarioURL(base, "parallel") + "/chat/completions"
		flush := map[bool]string{false: "event", true: "coalesced"}[coalesce]
		for _, clients := range []int{1, 16, 128} {
			benchServe(b, fmt.Sprintf("flush=%s/clients=%d", flush, clients), url, reqBody, want, clients)
		}
	}
	bare := bareServer(b, sse.SplitEvents([]byte(want)))
	for _, clients := range []int{1, 16, 128} {
		benchServe(b, fmt.Sprintf("flush=bare/clients=%d", clients), bare, reqBody, want, clients)
	}
}

// bareServer serves events from bareserver.Handler on loopback, the floor
// serve's per-event flushing is measured against, and returns its URL.
func bareServer(b *testing.B, events [][]byte) string {
	srv := httptest.NewServer(bareserver.Handler(events))
	b.Cleanup(srv.Close)
	return srv.URL
}

// benchServe is one sub-benchmark: clients goroutines post reqBody until
// b.N answers, each equal to want, have been read.
func benchServe(b *testing.B, name, url string, reqBody []byte, want string, clients int) {
	wantBytes := []byte(want)
	{
		b.Run(name, func(b *testing.B) {
			tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			var next atomic.Int64
			var failed atomic.Value
			var wg sync.WaitGroup
			b.SetBytes(int64(len(want)))
			b.ReportAllocs()
			b.ResetTimer()
			start, cpu := time.Now(), processCPU()
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					buf := make([]byte, 0, 8<<10)
					for next.Add(1) <= int64(b.N) {
						resp, err := client.Post(url, "application/json", bytes.NewReader(reqBody))
						if err != nil {
							failed.Store(err)
							return
						}
						w := bytes.NewBuffer(buf[:0])
						_, err = io.Copy(w, resp.Body)
						resp.Body.Close()
						if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(w.Bytes(), wantBytes) {
							failed.Store(fmt.Errorf("status %d, read error %v, %d bytes", resp.StatusCode, err, w.Len()))
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if err := failed.Load(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "replays/s")
			b.ReportMetric(float64((processCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
