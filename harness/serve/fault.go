package serve

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
)

// The kinds of Fault.
const (
	// Fault429 answers a request's first attempt with 429 and a
	// Retry-After header, then the real reply to the same request.
	Fault429 = "429"
	// Fault500 answers every request with 500.
	Fault500 = "500"
	// FaultStall sends the headers and the first After events, then
	// nothing until the client goes away.
	FaultStall = "stall"
	// FaultReset closes the connection after After events, mid-stream.
	FaultReset = "reset"
	// FaultErrorEvent sends After events, then an error event inside the
	// HTTP 200 stream, and ends it.
	FaultErrorEvent = "error-event"
)

// The kinds of Fault that break a Responses stream sent over a WebSocket,
// frame by frame (websocket.go). An HTTP request is served clean under
// them: they are shapes of the transport, not of the stream.
const (
	// FaultFrameSplit sends every event as a fragmented message: its
	// halves in two frames, then an empty continuation frame that ends it.
	// Legal WebSocket, which a client's library joins.
	FaultFrameSplit = "ws-split"
	// FaultFramePair sends the event after After events and the one after
	// it in one text frame, a newline between them, as a gateway that
	// coalesces writes does.
	FaultFramePair = "ws-pair"
	// FaultFrameClose sends After events, then a close frame with code
	// 1011 (internal error).
	FaultFrameClose = "ws-close"
	// FaultFrameCloseBare sends After events, then a close frame with no
	// code at all.
	FaultFrameCloseBare = "ws-close-bare"
	// FaultPingStorm sends pings before every event, each waiting for its
	// pong.
	FaultPingStorm = "ws-ping"
	// FaultFrameError sends After events, then an in-band error frame
	// ({"type":"error","status":500,...}) and nothing more of that
	// response; the connection stays open.
	FaultFrameError = "ws-error"
	// FaultForgetPrevious answers a continuation (previous_response_id)
	// with the API's previous_response_not_found error, once per case, as
	// a server that lost the connection's state does.
	FaultForgetPrevious = "ws-forget"
	// FaultRefuseUpgrade answers every WebSocket upgrade with 426 Upgrade
	// Required: the client must post its requests over HTTP instead.
	FaultRefuseUpgrade = "ws-refuse"
)

// PingsPerEvent is how many pings FaultPingStorm sends before each event.
const PingsPerEvent = 8

// DefaultFaultAfter is how many events a stall, reset or error-event lets
// through when Fault.After is 0.
const DefaultFaultAfter = 3

// A Fault breaks a server's replies on purpose, applied to the recorded
// bytes: the events before it are served exactly as recorded.
type Fault struct {
	// Kind is one of Fault429, Fault500, FaultStall, FaultReset,
	// FaultErrorEvent; "" is no fault.
	Kind string
	// After is how many events a stall, reset or error-event lets
	// through (0 means DefaultFaultAfter); for 429, the Retry-After
	// seconds (0 means 1).
	After int
	// Turn limits the fault to the request of that turn (1-based, as
	// Request.Turn); 0 means every request.
	Turn int
}

// ParseFault reads KIND[:N][@TURN]: "429", "429:2" (Retry-After: 2),
// "500", "stall", "stall:5" (five events, then silence), "reset:4",
// "error-event:2", each optionally limited to one turn ("reset:4@1").
// "" is no fault.
func ParseFault(s string) (Fault, error) {
	if s == "" {
		return Fault{}, nil
	}
	bad := func(why string) (Fault, error) {
		return Fault{}, fmt.Errorf("bad fault %q: %s (want KIND[:N][@TURN], KIND one of %s)", s, why, strings.Join(faultKinds, ", "))
	}
	spec, turn, hasTurn := strings.Cut(s, "@")
	kind, n, hasN := strings.Cut(spec, ":")
	f := Fault{Kind: kind}
	if !slices.Contains(faultKinds, kind) {
		return bad("unknown kind " + strconv.Quote(kind))
	}
	if hasN {
		switch kind {
		case Fault500, FaultFrameSplit, FaultPingStorm, FaultForgetPrevious, FaultRefuseUpgrade:
			return bad(kind + " takes no number")
		}
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 || (kind == Fault429 && v == 0) {
			return bad("N must be a whole number (at least 1 for 429)")
		}
		f.After = v
		if v == 0 && kind != Fault429 {
			f.After = -1 // explicitly no event before the fault
		}
	}
	if hasTurn {
		v, err := strconv.Atoi(turn)
		if err != nil || v < 1 {
			return bad("TURN must be 1 or more")
		}
		f.Turn = v
	}
	return f, nil
}

// faultKinds are the kinds ParseFault reads, in the order its error names
// them.
var faultKinds = []string{Fault429, Fault500, FaultStall, FaultReset, FaultErrorEvent,
	FaultFrameSplit, FaultFramePair, FaultFrameClose, FaultFrameCloseBare, FaultPingStorm, FaultFrameError, FaultForgetPrevious, FaultRefuseUpgrade}

// String writes f the way ParseFault reads it.
func (f Fault) String() string {
	if f.Kind == "" {
		return ""
	}
	s := f.Kind
	switch {
	case f.After < 0:
		s += ":0"
	case f.After > 0:
		s += ":" + strconv.Itoa(f.After)
	}
	if f.Turn > 0 {
		s += "@" + strconv.Itoa(f.Turn)
	}
	return s
}

// AppliesTo reports whether f breaks the reply to a request of that turn.
func (f Fault) AppliesTo(turn int) bool {
	return f.Kind != "" && (f.Turn == 0 || f.Turn == turn)
}

// BreaksStream reports whether the fault acts inside a streamed reply.
func (f Fault) BreaksStream() bool {
	return f.Kind == FaultStall || f.Kind == FaultReset || f.Kind == FaultErrorEvent
}

// BreaksFrames reports whether the fault acts on the frames of a stream
// sent over a WebSocket (frameWriter).
func (f Fault) BreaksFrames() bool {
	switch f.Kind {
	case FaultFrameSplit, FaultFramePair, FaultFrameClose, FaultFrameCloseBare, FaultPingStorm, FaultFrameError:
		return true
	}
	return false
}

// EventsBefore is how many events pass before a stream fault.
func (f Fault) EventsBefore() int {
	switch {
	case f.After < 0:
		return 0
	case f.After == 0:
		return DefaultFaultAfter
	}
	return f.After
}

// RetryAfter is the Retry-After seconds of a 429.
func (f Fault) RetryAfter() int {
	return max(f.After, 1)
}

// Refuse answers a request with f's error when f is a 429 or a 500 (in the
// shape of format api, nil for OpenAI's) and reports whether it did: a 429
// with its Retry-After header, a 500 as is.
func Refuse(w http.ResponseWriter, api *agent.Format, f Fault) bool {
	switch f.Kind {
	case Fault429:
		w.Header().Set("Retry-After", fmt.Sprint(f.RetryAfter()))
		apierror.Write(w, api, http.StatusTooManyRequests, "rate_limit_exceeded", "agentvcr fault: rate limited; retry after the Retry-After header's seconds")
	case Fault500:
		apierror.Write(w, api, http.StatusInternalServerError, "server_error", "agentvcr fault: the server failed")
	default:
		return false
	}
	return true
}
