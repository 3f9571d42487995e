package serve

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// ErrUnknownCase is what a Server's Route returns (wrapped) for a case name
// it does not serve; the client gets HTTP 404.
var ErrUnknownCase = errors.New("no such case")

// A Server is a model endpoint on loopback that answers a POST on every
// wire format's path (wire.ForPath: each recording on the path of the format
// it was recorded in) and GET /v1/models from whatever its Route resolves,
// on the plain base URL (/v1/...) and on scenario-scoped ones
// (/s/<case>/v1/...). It keeps no conversation state: every request is
// answered on its own, so any number of clients may use it at once. It is
// the one server behind agentvcr serve, agentvcr conform and the tests.
type Server struct {
	// Route resolves a case name (the <case> of /s/<case>/v1; "" for the
	// plain /v1) to what serves it. An error answers HTTP 404 with its
	// message; wrap ErrUnknownCase for a name that is not served.
	Route func(name string) (*Route, error)
	// Journal, when not nil, receives one JSON line per request: what was
	// asked and what answered it (see JournalEntry).
	Journal io.Writer
	// Log, when not nil, receives one line per miss and per request that
	// got an error status. A miss's diff there is a summary (its first
	// differences, each line cut); the journal has the whole diff.
	Log io.Writer
	// MaxBody bounds one request body: MaxRequestBody when 0. A larger
	// body, declared or sent, is answered 413 in the request format's
	// error shape.
	MaxBody int64
	// ReadTimeout bounds the time a client takes to send one request
	// body: DefaultReadTimeout when 0, none when negative. A client that
	// goes silent is answered 408 and dropped. Headers have 10 s.
	ReadTimeout time.Duration
	// MaxBodyTotal bounds what the bodies still arriving hold together:
	// DefaultMaxBodyTotal when 0, none when negative. A request whose body
	// would take more is answered 503 with Retry-After: 1 and dropped, so
	// that slow clients together hold no more than this.
	MaxBodyTotal int64

	// MaxWebSockets bounds the WebSocket connections open at once:
	// DefaultMaxWebSockets when 0, none when negative. One over it is
	// closed with code 1013 and a log line.
	MaxWebSockets int
	// FrameWriteTimeout bounds the write of one WebSocket frame:
	// DefaultFrameWriteTimeout when 0. A client that reads nothing for
	// longer loses its connection, with a log line.
	FrameWriteTimeout time.Duration

	ws         wsConns
	forgot     sync.Map // ws-forget faults: cases whose continuation was refused once
	budgetOnce sync.Once
	budget     *bodyBudget
	seq        atomic.Int64
	infoMu     sync.RWMutex
	info       map[bodySum]chatInfo // request body's sum -> what chatInfo found
	out        sync.Mutex           // guards Journal and Log
	refused    sync.Map             // 429 faults: case and body sum of requests already refused once
	stopOnce   sync.Once
	done       chan struct{} // closed by stop: ends stalls and pacing
	doneOnce   sync.Once
}

// A Route is what serves one case.
type Route struct {
	// Answer answers one request of any format the server speaks. An
	// error answers HTTP 404 with the error's message (a *MissError carries
	// its diff).
	Answer func(Request) (Reply, error)
	// Models is what GET /v1/models lists.
	Models []string
	// Fault, when set, breaks the replies (see Fault).
	Fault Fault
	// Pace is the pause before each event of a streamed reply.
	Pace time.Duration
	// PaceRecorded, in place of Pace, sends each event of a streamed reply
	// at the time it arrived when recorded (Reply.At, since the request
	// reached the server), divided by Speed (1 when 0). A reply with no
	// recorded times is sent at once; an event past the last time recorded
	// (a quirk that adds events) at the last.
	PaceRecorded bool
	Speed        float64
	// Rechunk, when its mode is not rechunk.Whole, cuts a streamed reply
	// into its pieces instead of events, one flush each.
	Rechunk rechunk.Cutter
	// Preflight answers HEAD and GET on a path no format serves with 200
	// and no body (a client checking that the server is up, as Claude Code
	// does with HEAD /api/hello), without handing them to Answer.
	Preflight bool
	// WebSocket, when set, sees every WebSocket handshake on the Responses
	// path (Request.Transport "websocket", no body) and returns 0 to accept
	// it or the HTTP status to refuse it with (426: the client must use
	// HTTP).
	WebSocket func(Request) int
	// Miss, when set, answers a request Answer missed (a *cassette.MissError)
	// in place of the 404: record.MissHandler forwards it to an upstream and
	// records the exchange (serve -record new). The journal's entry for it
	// says so (From: its FromHeader's value) with the status it sent.
	Miss http.Handler
	// Unrouted, when set, sees every other request on a path no format
	// serves, its body read, before it is answered 404.
	Unrouted func(Request)
	// Coalesce writes a streamed reply's events without a flush between
	// them: one write at the end, as a server that corks its socket (Node's
	// http does within one tick) sends events written without a pause. For
	// load tests; it applies only with no Pace and no Rechunk.
	Coalesce bool
}

// A Request is one request as a Route's Answer sees it.
type Request struct {
	// Case is the case name from the URL ("" on the plain base URL).
	Case string
	// Method and Path are the request's; Path is what follows the case
	// prefix (a format's BasePath + Path).
	Method, Path string
	Header       http.Header
	Body         []byte
	// Model is the body's "model".
	Model string
	// Turn is 1 + the number of assistant messages in the body: the
	// request's place in its conversation.
	Turn int
	// Seq numbers the requests the server received, from 1.
	Seq int64
	// Transport is "websocket" for a response.create frame (Body is then
	// the HTTP request it stands for: the connection's held context and the
	// frame's input, websocket.go), "" for an HTTP request.
	Transport string
	// Frame is the response.create frame as sent, over a WebSocket.
	Frame []byte
}

// A Reply is what answers one request.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header is sent as it is; nil means Content-Type text/event-stream
	// for a streamed reply and application/json otherwise.
	Header http.Header
	// Body is the reply's bytes. An SSE body (Header's Content-Type
	// text/event-stream, or a body starting with "data:" or ":") is
	// streamed event by event.
	Body []byte
	// Events is Body cut after each SSE event (SplitEvents); nil means it
	// is cut when served. Callers that serve a body often set it once.
	Events [][]byte
	// From names what answered, for the journal ("parallel interaction 2").
	From string
	// Fault, when its Kind is a stream fault (stall, reset, error-event),
	// breaks this reply alone, in place of the route's: an Answer that
	// decides per request (conform's first attempt only) sets it.
	Fault Fault
	// At is when each event arrived when it was recorded, since the
	// request (cassette.EventTimesHeader): what Route.PaceRecorded
	// replays. nil when the recording kept none.
	At []time.Duration
}

// Start serves s on addr ("127.0.0.1:0" when empty). It returns the base
// URL to give a client (ListenURL: http://HOST:PORT/v1; a wildcard address
// is written as 127.0.0.1) and stop, which closes the listener and every
// connection, ending streams in progress.
func (s *Server) Start(addr string) (baseURL string, stop func() error, err error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return s.Serve(ln)
}

// Serve is Start on a listener the caller opened.
func (s *Server) Serve(ln net.Listener) (baseURL string, stop func() error, err error) {
	s.doneOnce.Do(func() { s.done = make(chan struct{}) })
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	base, _ := ListenURL(ln.Addr())
	stop = func() error {
		var err error
		s.stopOnce.Do(func() {
			close(s.done)
			err = srv.Close()
			s.ws.closeAll()
		})
		return err
	}
	return base, stop, nil
}

// ScenarioURL returns the scenario-scoped base URL of a case, given the
// server's base URL (as Start returns it): http://HOST/s/<case>/v1.
func ScenarioURL(baseURL, name string) string {
	return strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1") + "/s/" + url.PathEscape(name) + "/v1"
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, path := "", r.URL.Path
	if rest, ok := strings.CutPrefix(path, "/s/"); ok {
		name, path, _ = strings.Cut(rest, "/")
		path = "/" + path
	}
	api := wire.ForPath(path)
	if s.Route == nil {
		s.fail(w, api, http.StatusNotFound, "not_found", "this server has no routes")
		return
	}
	route, err := s.Route(name)
	if err != nil {
		s.fail(w, api, http.StatusNotFound, "not_found", err.Error())
		return
	}
	switch {
	case strings.HasSuffix(path, "/models") && r.Method == http.MethodGet:
		writeModels(w, route.Models)
	case api == responses.Format && IsUpgrade(r):
		s.websocket(w, r, name, path, api, route)
	case api != nil && r.Method == http.MethodPost:
		s.chat(w, r, name, path, api, route)
	case api != nil, strings.HasSuffix(path, "/models"):
		s.fail(w, api, http.StatusMethodNotAllowed, "invalid_request_error", fmt.Sprintf("%s is not allowed on %s", r.Method, path))
	case route.Preflight && (r.Method == http.MethodHead || r.Method == http.MethodGet):
		w.WriteHeader(http.StatusOK)
	default:
		if route.Unrouted != nil {
			body, _ := ReadBody(w, r, s.MaxBody, s.ReadTimeout) // what was read, even when the read failed
			route.Unrouted(Request{Case: name, Method: r.Method, Path: path, Header: r.Header, Body: body})
		}
		s.fail(w, nil, http.StatusNotFound, "not_found", fmt.Sprintf("no route for %s %s: use %s, or GET .../v1/models", r.Method, r.URL.Path, endpoints()))
	}
}

// chat answers one request on a format's endpoint.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, name, path string, api *agent.Format, route *Route) {
	body, ok := s.readBody(w, r, api)
	if !ok {
		return
	}
	s.answer(w, r, Request{Case: name, Method: r.Method, Path: path, Header: r.Header, Body: body}, api, route)
}

// answer answers one request whose body was read, on w: an HTTP response,
// or a WebSocket cycle's frames (frameWriter), which the same faults,
// pacing and journal apply to.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, api *agent.Format, route *Route) {
	name, path, body := req.Case, req.Path, req.Body
	sum := bodySum(sha256.Sum256(body))
	req.Seq = s.seq.Add(1)
	req.Model, req.Turn = s.chatInfo(api, path, body, sum)
	entry := JournalEntry{Seq: req.Seq, Case: name, Method: req.Method, Path: path, Model: req.Model, Turn: req.Turn, Transport: req.Transport, body: body}

	f := route.Fault
	if f.AppliesTo(req.Turn) {
		switch f.Kind {
		case Fault429:
			if _, seen := s.refused.LoadOrStore(refusedKey{name, sum}, true); !seen {
				entry.Status, entry.Fault = http.StatusTooManyRequests, f.String()
				s.write(entry)
				Refuse(w, api, f)
				return
			}
		case Fault500:
			entry.Status, entry.Fault = http.StatusInternalServerError, f.String()
			s.write(entry)
			Refuse(w, api, f)
			return
		}
	}

	reply, err := route.Answer(req)
	var missed *cassette.MissError
	if err != nil && route.Miss != nil && errors.As(err, &missed) {
		s.forwardMiss(w, r, req, entry, route)
		return
	}
	if err != nil {
		entry.Status, entry.Error = http.StatusNotFound, err.Error()
		var miss *cassette.MissError
		if s.Journal != nil && errors.As(err, &miss) {
			entry.Diff = miss.WholeDiff()
		}
		s.write(entry)
		s.logf("agentvcr serve: %v", err)
		apierror.Write(w, api, http.StatusNotFound, "agentvcr_no_match", err.Error())
		return
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	entry.Status, entry.From = status, reply.From
	stream := status == http.StatusOK && (isSSEReply(reply) || isFramedReply(api, reply))
	if reply.Fault.BreaksStream() || reply.Fault.BreaksFrames() {
		own := *route
		own.Fault, own.Fault.Turn = reply.Fault, 0
		route, f = &own, own.Fault
	}
	fw, frames := w.(*frameWriter)
	if stream && f.AppliesTo(req.Turn) && (f.BreaksStream() || (frames && f.BreaksFrames())) {
		entry.Fault = f.String() // a frame fault breaks frames only: HTTP is served clean
	}
	if frames && stream && f.AppliesTo(req.Turn) && f.BreaksFrames() {
		fw.fault = f
	}
	s.write(entry)

	for k, v := range reply.Header {
		w.Header()[k] = v
	}
	if !stream {
		if reply.Header == nil {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		w.Write(reply.Body)
		return
	}
	if reply.Header == nil || api.Framing != nil {
		// A framed format's stream goes out framed, whatever its reply
		// was written in (stream.go).
		w.Header().Set("Content-Type", api.StreamContentType())
	}
	w.Header().Set("Cache-Control", "no-cache")
	s.stream(w, r, reply, api, route, f.AppliesTo(req.Turn))
}

// isSSEReply reports a reply to stream: its Content-Type says so, or, with
// no header, it has events or its body starts as an event stream does (a
// comment, data:, or event: as Messages and Responses streams do).
func isSSEReply(r Reply) bool {
	if r.Header != nil {
		return sse.IsEventStream(r.Header.Get("Content-Type"))
	}
	head := string(r.Body[:min(len(r.Body), 6)])
	return len(r.Events) > 0 || strings.HasPrefix(head, ":") || strings.HasPrefix(head, "data:") || strings.HasPrefix(head, "event:")
}

// isFramedReply reports a reply already in api's framing (a recorded
// Bedrock event stream): it is streamed message by message as it is.
func isFramedReply(api *agent.Format, r Reply) bool {
	return api != nil && api.Framing != nil && api.Framing.IsFramed(r.Body)
}

// modelsCreated is the "created" stamp of every listed model: fixed (the
// scripted gateway's stamp, 2026-01-01), so listings are the same bytes on
// every run.
const modelsCreated = 1767225600

func writeModels(w http.ResponseWriter, models []string) {
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, m := range models {
		list.Data = append(list.Data, model{ID: m, Object: "model", Created: modelsCreated, OwnedBy: "agentvcr"})
	}
	body, _ := json.Marshal(list)
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(body, '\n'))
}

// fail answers an error in the shape of api's errors (OpenAI's when api is
// nil) and logs it.
func (s *Server) fail(w http.ResponseWriter, api *agent.Format, status int, code, message string) {
	s.logf("agentvcr serve: %d: %s", status, message)
	apierror.Write(w, api, status, code, message)
}

func (s *Server) logf(format string, args ...any) {
	if s.Log == nil {
		return
	}
	s.out.Lock()
	defer s.out.Unlock()
	fmt.Fprintf(s.Log, format+"\n", args...)
}

// endpoints names every format's endpoint as a client posts to it, for the
// no-route message: each format's base URL and path, the last after "or".
func endpoints() string {
	var paths []string
	for _, f := range wire.All() {
		if p := wire.BaseURL(f, "...") + f.Path("MODEL"); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 1 {
		return "POST " + paths[0]
	}
	return "POST " + strings.Join(paths[:len(paths)-1], ", ") + " or " + paths[len(paths)-1]
}

// FromHeader is the response header a Route.Miss handler names what
// answered in, for the journal ("the upstream, recorded").
const FromHeader = "X-Agentvcr-From"

// forwardMiss hands a missed request, its body as read, to route.Miss,
// and journals what it sent.
func (s *Server) forwardMiss(w http.ResponseWriter, r *http.Request, req Request, entry JournalEntry, route *Route) {
	r.Body = io.NopCloser(bytes.NewReader(req.Body))
	r.ContentLength = int64(len(req.Body))
	sw := &StatusWriter{ResponseWriter: w}
	route.Miss.ServeHTTP(sw, r)
	entry.Status, entry.From = sw.Status, cmp.Or(sw.Header().Get(FromHeader), "the miss handler")
	if entry.Status == 0 {
		entry.Status = http.StatusOK
	}
	s.write(entry)
}

// A StatusWriter passes what a handler sends to the ResponseWriter it
// wraps and notes the status (200 once a body is written without one);
// with Keep, it keeps the body too. http.ResponseController reaches the
// writer underneath (Unwrap).
type StatusWriter struct {
	http.ResponseWriter
	Status int
	Keep   bool
	Body   bytes.Buffer // what was written, with Keep
}

func (w *StatusWriter) WriteHeader(status int) {
	if w.Status == 0 {
		w.Status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *StatusWriter) Write(p []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	if w.Keep {
		w.Body.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

// Flush flushes the writer underneath, when it can.
func (w *StatusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap is the writer underneath, for http.ResponseController.
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
