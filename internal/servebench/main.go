// Command servebench drives OpenAI-compatible chat-completions servers with
// a Go load client and prints, per server and level of concurrency, the
// replays per second (whole streams read) and the latency percentiles.
// Every client has its own keep-alive connection and posts the same body
// again as soon as it has read the previous answer to its end. Servers are
// measured in turn, several rounds, so that a busy machine treats each
// alike; the load average is printed with each round.
//
//	go run ./internal/servebench -cassette cassettes/parallel.yaml -expect tool_calls \
//	    -target agentvcr=http://127.0.0.1:8080/v1 -target aimock=http://127.0.0.1:4010/v1
//
// The request is the first one the cassette recorded (or -body FILE). The
// summary compares every server with the last one named.
// -aimock-fixture FILE writes, instead, an aimock fixture that answers that
// request with the same turn (text and tool calls, ids included) and exits.
// -bare-serve serves, instead, the cassette's first reply from a bare
// net/http server that flushes per event (bareHandler): the floor of
// `agentvcr serve`'s default mode. It prints "bare BASE_URL" and runs until
// killed. -floor NAME adds to the summary each server's share of NAME's
// replays per second.
// harness/bench/serve_vs_aimock.sh runs it against agentvcr serve and
// aimock side by side.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentvcr/agentvcr/wire/chat"
)

type target struct{ name, url string }

type targets []target

func (t *targets) String() string { return fmt.Sprint(*t) }
func (t *targets) Set(s string) error {
	name, url, ok := strings.Cut(s, "=")
	if !ok {
		return errors.New("want NAME=BASE_URL")
	}
	*t = append(*t, target{name, strings.TrimRight(url, "/") + chat.Format.Path("")})
	return nil
}

// result is one measurement of one server at one level.
type result struct {
	replays       int
	perSecond     float64
	p50, p99      time.Duration
	bytesPerReply int
	errors        int
	firstErr      error
}

func main() {
	var (
		ts       targets
		bodyFile = flag.String("body", "", "request body `FILE` (JSON)")
		cassette = flag.String("cassette", "", "post the first request recorded in this cassette `FILE`")
		fixture  = flag.String("aimock-fixture", "", "write an aimock fixture for the cassette's first turn to `FILE` and exit")
		expect   = flag.String("expect", "", "every answer must contain this `TEXT`")
		levels   = flag.String("clients", "1,16,128", "comma-separated concurrency `LEVELS`")
		duration = flag.Duration("duration", 3*time.Second, "measuring time per server and level")
		warmup   = flag.Duration("warmup", 500*time.Millisecond, "unmeasured load before each measurement")
		rounds   = flag.Int("rounds", 3, "rounds over every server and level")
		bare     = flag.Bool("bare-serve", false, "serve the cassette's first reply from a bare net/http server that flushes per event, until killed")
		floor    = flag.String("floor", "", "also print each server's replays/s as a share of the target `NAME`'s")
	)
	flag.Var(&ts, "target", "a server: `NAME=BASE_URL` (repeatable)")
	flag.Parse()
	var body []byte
	var err error
	if *cassette != "" {
		var reply []byte
		body, reply, err = firstInteraction(*cassette)
		switch {
		case err == nil && *fixture != "":
			err = writeFixture(*fixture, body, reply)
			if err == nil {
				return
			}
		case err == nil && *bare:
			err = serveBare(os.Stdout, reply)
			fmt.Fprintln(os.Stderr, "servebench:", err)
			os.Exit(1)
		}
	} else {
		body, err = os.ReadFile(*bodyFile)
	}
	if err != nil || len(ts) == 0 {
		fmt.Fprintln(os.Stderr, "servebench: need -cassette FILE or -body FILE, and at least one -target NAME=URL:", err)
		os.Exit(2)
	}
	var ns []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "servebench: bad -clients %q\n", *levels)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	all := map[string][]result{} // "name/level" -> one per round
	for r := 1; r <= *rounds; r++ {
		fmt.Printf("round %d (load average %s)\n", r, loadavg())
		for _, n := range ns {
			order := slices.Clone(ts)
			if r%2 == 0 {
				slices.Reverse(order) // neither server always goes first
			}
			for _, t := range order {
				res := measure(t.url, body, []byte(*expect), n, *warmup, *duration)
				all[fmt.Sprintf("%s/%d", t.name, n)] = append(all[fmt.Sprintf("%s/%d", t.name, n)], res)
				line := fmt.Sprintf("  %-12s clients=%-4d %8.0f replays/s  p50 %6.2f ms  p99 %6.2f ms  %5d B/reply",
					t.name, n, res.perSecond, ms(res.p50), ms(res.p99), res.bytesPerReply)
				if res.errors > 0 {
					line += fmt.Sprintf("  %d errors (first: %v)", res.errors, res.firstErr)
				}
				fmt.Println(line)
			}
		}
	}
	fmt.Printf("median of %d rounds (load average %s)\n", *rounds, loadavg())
	last := ts[len(ts)-1].name
	for _, n := range ns {
		base := median(all[fmt.Sprintf("%s/%d", last, n)], func(r result) float64 { return r.perSecond })
		for i, t := range ts {
			rs := all[fmt.Sprintf("%s/%d", t.name, n)]
			per := median(rs, func(r result) float64 { return r.perSecond })
			p99 := median(rs, func(r result) float64 { return ms(r.p99) })
			line := fmt.Sprintf("  %-12s clients=%-4d %8.0f replays/s  p99 %6.2f ms", t.name, n, per, p99)
			if i < len(ts)-1 && base > 0 {
				line += fmt.Sprintf("  %.2fx %s's replays/s", per/base, last)
			}
			if f := median(all[fmt.Sprintf("%s/%d", *floor, n)], func(r result) float64 { return r.perSecond }); f > 0 && t.name != *floor {
				line += fmt.Sprintf("  %.0f%% of %s's", 100*per/f, *floor)
			}
			fmt.Println(line)
		}
	}
}

// measure runs n clients against url for warmup+d and measures the last d.
func measure(url string, body, expect []byte, n int, warmup, d time.Duration) result {
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), warmup+d)
	defer cancel()
	start := time.Now().Add(warmup)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		total     int
		res       result
		wg        sync.WaitGroup
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var bytesRead, errs int
			var firstErr error
			buf := bytes.NewBuffer(make([]byte, 0, 16<<10))
			for ctx.Err() == nil {
				t0 := time.Now()
				err := post(ctx, client, url, body, expect, buf)
				if ctx.Err() != nil {
					break // cut off by the end of the measurement
				}
				if err != nil {
					errs++
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				if t0.After(start) {
					lat = append(lat, time.Since(t0))
					bytesRead += buf.Len()
				}
			}
			mu.Lock()
			latencies = append(latencies, lat...)
			total += bytesRead
			res.errors += errs
			if res.firstErr == nil {
				res.firstErr = firstErr
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(latencies)
	res.replays = len(latencies)
	res.perSecond = float64(res.replays) / d.Seconds()
	if res.replays > 0 {
		res.p50 = latencies[res.replays/2]
		res.p99 = latencies[min(res.replays-1, res.replays*99/100)]
		res.bytesPerReply = total / res.replays
	}
	return res
}

// post sends one request and reads the whole answer into buf.
func post(ctx context.Context, client *http.Client, url string, body, expect []byte, buf *bytes.Buffer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer dummy")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := io.Copy(buf, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.200s", resp.StatusCode, buf.String())
	}
	if !bytes.Contains(buf.Bytes(), expect) {
		return fmt.Errorf("the answer lacks %q: %.200s", expect, buf.String())
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(rs []result, f func(result) float64) float64 {
	var vs []float64
	for _, r := range rs {
		vs = append(vs, f(r))
	}
	slices.Sort(vs)
	if len(vs) == 0 {
		return 0
	}
	return vs[len(vs)/2]
}

// loadavg is the first three fields of /proc/loadavg, or "unknown".
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}
