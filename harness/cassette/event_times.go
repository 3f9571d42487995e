package cassette

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// EventTimesHeader is the response header in which a recording keeps when
// each event of a streamed answer arrived: milliseconds since the request
// went upstream, one per event, comma-separated ("412,415,431"). go-vcr
// v2.1.0 keeps it as it keeps any header, so a cassette without it loads,
// saves and replays exactly as before; `agentvcr record` writes it and
// `agentvcr serve -pace recorded` reads it.
const EventTimesHeader = "X-Agentvcr-Event-Times"

// TransportHeader marks, in a recorded answer's headers, an exchange that
// travelled as a WebSocket cycle (its value TransportWebSocket): its
// request is the HTTP request the response.create frame stood for (the
// connection's held context, then the frame's input, with "stream": true),
// its answer the frames as the SSE events they stand for. go-vcr reads it
// as any interaction; a replay serves it over a WebSocket, matched by body
// (the server resolves a continuation into the same request), or over HTTP
// matched by turn (an HTTP client sends its own copy of the output items,
// not the upstream's).
const TransportHeader = "X-Agentvcr-Transport"

// TransportWebSocket is TransportHeader's value for a WebSocket cycle.
const TransportWebSocket = "websocket"

// ErrBadEventTimes is returned for an EventTimesHeader value that is not
// a list of non-decreasing whole milliseconds.
var ErrBadEventTimes = errors.New("bad event times")

// FormatEventTimes writes arrival times as EventTimesHeader holds them,
// cut to whole milliseconds.
func FormatEventTimes(at []time.Duration) string {
	parts := make([]string, len(at))
	for i, d := range at {
		parts[i] = strconv.FormatInt(d.Milliseconds(), 10)
	}
	return strings.Join(parts, ",")
}

// ParseEventTimes reads an EventTimesHeader value.
func ParseEventTimes(v string) ([]time.Duration, error) {
	if v == "" {
		return nil, nil
	}
	var at []time.Duration
	for i, p := range strings.Split(v, ",") {
		ms, err := strconv.ParseInt(p, 10, 64)
		if err != nil || ms < 0 || ms > int64(24*time.Hour/time.Millisecond) {
			return nil, fmt.Errorf("%w: event %d: %q is no number of milliseconds", ErrBadEventTimes, i+1, p)
		}
		d := time.Duration(ms) * time.Millisecond
		if len(at) > 0 && d < at[len(at)-1] {
			return nil, fmt.Errorf("%w: event %d arrives at %d ms, before event %d", ErrBadEventTimes, i+1, ms, i)
		}
		at = append(at, d)
	}
	return at, nil
}

// TimedInteractions counts the interactions of a cassette (its YAML as
// saved) whose answer carries event times that read: a cassette recorded
// before `agentvcr record` kept them has none.
func TimedInteractions(data []byte) (int, error) {
	c, err := Decode(data)
	if err != nil {
		return 0, err
	}
	return Timed(c), nil
}

// Timed counts the interactions of a decoded cassette that keep event
// times that read (see TimedInteractions).
func Timed(c *vcr.Cassette) int {
	n := 0
	for _, i := range c.Interactions {
		if at, err := ParseEventTimes(i.Response.Headers.Get(EventTimesHeader)); err == nil && len(at) > 0 {
			n++
		}
	}
	return n
}
