package serve

import (
	"bufio"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPacerWaits(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 22, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	reply := Reply{At: []time.Duration{20 * ms, 20 * ms, 320 * ms}}
	for _, tt := range []struct {
		reason string
		route  Route
		reply  Reply
		now    []time.Duration // since t0, before each of four events
		want   []time.Duration
	}{
		{"-pace D: the same pause before each", Route{Pace: 50 * ms}, reply,
			[]time.Duration{0, 0, 0, 0}, []time.Duration{50 * ms, 50 * ms, 50 * ms, 50 * ms}},
		{"recorded: until each event's time since the request", Route{PaceRecorded: true}, reply,
			[]time.Duration{0, 20 * ms, 21 * ms, 320 * ms}, []time.Duration{20 * ms, 0, 299 * ms, 0}},
		{"recorded, twice as fast", Route{PaceRecorded: true, Speed: 2}, reply,
			[]time.Duration{0, 10 * ms, 10 * ms, 100 * ms}, []time.Duration{10 * ms, 0, 150 * ms, 60 * ms}},
		{"recorded, a writer late: no wait", Route{PaceRecorded: true}, reply,
			[]time.Duration{30 * ms, 30 * ms, 400 * ms, 400 * ms}, []time.Duration{-10 * ms, -10 * ms, -80 * ms, -80 * ms}},
		{"recorded, no times kept: at once", Route{PaceRecorded: true, Pace: 50 * ms}, Reply{},
			[]time.Duration{0, 0, 0, 0}, []time.Duration{0, 0, 0, 0}},
	} {
		p := newPacer(&tt.route, tt.reply, t0)
		for i, now := range tt.now {
			if got := p.before(i, t0.Add(now)); got != tt.want[i] {
				t.Errorf("%s: event %d at %s waits %s, want %s", tt.reason, i+1, now, got, tt.want[i])
			}
		}
	}
}

// timedCassette is one recorded stream of three events whose times the
// recording kept as times.
func timedCassette(times string) ServedCassette {
	return ServedCassette{Name: "timed", Data: []byte(`---
version: 1
interactions:
    - request:
        body: '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}'
        form: {}
        headers:
            Content-Type:
                - application/json
        url: http://gateway.test/v1/chat/completions
        method: POST
      response:
        body: |+
            data: {"choices":[{"index":0,"delta":{"content":"a"}}]}

            data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

            data: [DONE]

        headers:
            Content-Type:
                - text/event-stream
            X-Agentvcr-Event-Times:
                - "` + times + `"
        status: 200 OK
        code: 200
        duration: 0s
`)}
}

func TestReplayerReadsEventTimes(t *testing.T) {
	for _, tt := range []struct {
		times string
		want  []time.Duration
	}{
		{"5,250,260", []time.Duration{5 * time.Millisecond, 250 * time.Millisecond, 260 * time.Millisecond}},
		{"5,x", nil}, // does not read: served unpaced
	} {
		r, err := NewReplayer("t", MatchBody, timedCassette(tt.times))
		if err != nil {
			t.Fatal(err)
		}
		reply, err := r.Answer(Request{Method: "POST", Path: "/v1/chat/completions", Body: []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`), Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(reply.At, tt.want) || len(reply.Events) != 3 {
			t.Errorf("%q: At %v, %d events", tt.times, reply.At, len(reply.Events))
		}
	}
}

// Served with PaceRecorded, the last events come no sooner than recorded
// after the request (a lower bound: the test asserts no speed).
func TestServePacesAsRecorded(t *testing.T) {
	router := &CassetteRouter{Cassettes: []ServedCassette{timedCassette("0,300,300")}, PaceRecorded: true}
	base := serveOn(t, &Server{Route: router.Route})
	start := time.Now()
	resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	var at []time.Duration
	for {
		line, err := r.ReadString('\n')
		if strings.HasPrefix(line, "data: ") {
			at = append(at, time.Since(start))
		}
		if err != nil {
			break
		}
	}
	if len(at) != 3 || at[1] < 300*time.Millisecond {
		t.Errorf("events read at %v: want 3, the second 300ms or more after the request", at)
	}
}
