package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrUnknownCase is what a Server's Route returns (wrapped) for a case name
// it does not serve; the client gets HTTP 404.
var ErrUnknownCase = errors.New("no such case")

// maxRequestBody bounds what the server reads of one request body.
const maxRequestBody = 32 << 20

// A Server is an OpenAI-compatible endpoint on loopback that answers
// POST /v1/chat/completions, POST /v1/responses (the OpenAI Responses API:
// cassettes recorded with run -api responses) and GET /v1/models from
// whatever its Route
// resolves, on the plain base URL (/v1/...) and on scenario-scoped ones
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
	// got an error status.
	Log io.Writer

	seq      atomic.Int64
	infoMu   sync.RWMutex
	info     map[string]chatInfo // request body -> what readChat found
	out      sync.Mutex          // guards Journal and Log
	refused  sync.Map            // 429 faults: requests already refused once
	stopOnce sync.Once
	done     chan struct{} // closed by stop: ends stalls and pacing
	doneOnce sync.Once
}

// A Route is what serves one case.
type Route struct {
	// Reply answers one chat-completions request. An error answers HTTP
	// 404 with the error's message (a *MissError carries its diff).
	Reply func(ServeRequest) (ServeReply, error)
	// Models is what GET /v1/models lists.
	Models []string
	// Fault, when set, breaks the replies (see Fault).
	Fault Fault
	// Pace is the pause before each event of a streamed reply.
	Pace time.Duration
	// Rechunk, when its mode is not RechunkWhole, cuts a streamed reply
	// into its pieces instead of events, one flush each.
	Rechunk Rechunk
	// Coalesce writes a streamed reply's events without a flush between
	// them: one write at the end, as a server that corks its socket (Node's
	// http does within one tick) sends events written without a pause. For
	// load tests; it applies only with no Pace and no Rechunk.
	Coalesce bool
}

// A ServeRequest is one request as a Route's Reply sees it.
type ServeRequest struct {
	// Case is the case name from the URL ("" on the plain base URL).
	Case string
	// Method and Path are the request's; Path is what follows the case
	// prefix ("/v1/chat/completions").
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
}

// A ServeReply is what answers one request.
type ServeReply struct {
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
	// breaks this reply alone, in place of the route's: a Reply that
	// decides per request (conform's first attempt only) sets it.
	Fault Fault
}

// Start serves s on addr ("127.0.0.1:0" when empty). It returns the base
// URL to give a client (http://HOST:PORT/v1; a wildcard address is written
// as 127.0.0.1) and stop, which closes the listener and every connection,
// ending streams in progress.
func (s *Server) Start(addr string) (baseURL string, stop func() error, err error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.doneOnce.Do(func() { s.done = make(chan struct{}) })
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	host := ln.Addr().(*net.TCPAddr)
	ip := host.IP.String()
	if host.IP.IsUnspecified() {
		ip = "127.0.0.1"
	}
	base := "http://" + net.JoinHostPort(ip, fmt.Sprint(host.Port)) + "/v1"
	stop = func() error {
		var err error
		s.stopOnce.Do(func() {
			close(s.done)
			err = srv.Close()
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
	if s.Route == nil {
		s.fail(w, http.StatusNotFound, "not_found", "this server has no routes")
		return
	}
	route, err := s.Route(name)
	if err != nil {
		s.fail(w, http.StatusNotFound, "not_found", err.Error())
		return
	}
	switch {
	case strings.HasSuffix(path, "/models") && r.Method == http.MethodGet:
		writeModels(w, route.Models)
	case isCompletion(path) && r.Method == http.MethodPost:
		s.chat(w, r, name, path, route)
	case isCompletion(path), strings.HasSuffix(path, "/models"):
		s.fail(w, http.StatusMethodNotAllowed, "invalid_request_error", fmt.Sprintf("%s is not allowed on %s", r.Method, path))
	default:
		s.fail(w, http.StatusNotFound, "not_found", fmt.Sprintf("no route for %s %s: use POST .../v1/chat/completions, .../v1/messages or .../v1/responses, or GET .../v1/models", r.Method, r.URL.Path))
	}
}

// isCompletion reports a path the server answers with a recorded reply:
// chat completions, OpenAI Responses or Anthropic Messages.
func isCompletion(path string) bool {
	return strings.HasSuffix(path, "/chat/completions") || strings.HasSuffix(path, "/responses") || isMessagesPath(path)
}

// isMessagesPath reports an Anthropic Messages request path: a cassette
// recorded with -api messages is served on POST .../v1/messages the same way
// (the client's base URL is the server's root, or /s/NAME, without /v1).
func isMessagesPath(path string) bool { return strings.HasSuffix(path, "/v1/messages") }

// chat answers one chat-completions, Responses or Anthropic Messages request.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, name, path string, route *Route) {
	body, err := readBody(r)
	if err != nil {
		s.fail(w, http.StatusBadRequest, "invalid_request_error", "cannot read the request body: "+err.Error())
		return
	}
	req := ServeRequest{Case: name, Method: r.Method, Path: path, Header: r.Header, Body: body, Seq: s.seq.Add(1)}
	req.Model, req.Turn = s.chatInfo(body)
	entry := JournalEntry{Seq: req.Seq, Case: name, Method: r.Method, Path: path, Model: req.Model, Turn: req.Turn, body: body}

	f := route.Fault
	if f.appliesTo(req.Turn) {
		switch f.Kind {
		case Fault429:
			if _, seen := s.refused.LoadOrStore(name+"\x00"+string(body), true); !seen {
				entry.Status, entry.Fault = http.StatusTooManyRequests, f.String()
				s.write(entry)
				w.Header().Set("Retry-After", fmt.Sprint(f.retryAfter()))
				writeError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "agentvcr fault: rate limited; retry after the Retry-After header's seconds")
				return
			}
		case Fault500:
			entry.Status, entry.Fault = http.StatusInternalServerError, f.String()
			s.write(entry)
			writeError(w, http.StatusInternalServerError, "server_error", "agentvcr fault: the server failed")
			return
		}
	}

	reply, err := route.Reply(req)
	if err != nil {
		entry.Status, entry.Error = http.StatusNotFound, err.Error()
		s.write(entry)
		s.logf("agentvcr serve: %v", err)
		writeError(w, http.StatusNotFound, "agentvcr_no_match", err.Error())
		return
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	entry.Status, entry.From = status, reply.From
	stream := status == http.StatusOK && isSSEReply(reply)
	if reply.Fault.breaksStream() {
		own := *route
		own.Fault, own.Fault.Turn = reply.Fault, 0
		route, f = &own, own.Fault
	}
	if stream && f.appliesTo(req.Turn) && f.breaksStream() {
		entry.Fault = f.String()
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
	if reply.Header == nil {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.Header().Set("Cache-Control", "no-cache")
	s.stream(w, r, reply, route, f.appliesTo(req.Turn))
}

// readBody reads a request body of at most maxRequestBody bytes, in one
// allocation when its length is known.
func readBody(r *http.Request) ([]byte, error) {
	n := r.ContentLength
	if n > maxRequestBody {
		return nil, fmt.Errorf("the body is over %d bytes", maxRequestBody)
	}
	if n < 0 {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
		if err == nil && len(body) > maxRequestBody {
			err = fmt.Errorf("the body is over %d bytes", maxRequestBody)
		}
		return body, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

type chatInfo struct {
	model string
	turn  int
}

// maxChatInfo bounds the bodies whose model and turn the server keeps.
const maxChatInfo = 1024

// chatInfo is readChat, remembered per body: clients that replay a
// conversation send the same bodies again and again.
func (s *Server) chatInfo(body []byte) (string, int) {
	s.infoMu.RLock()
	ci, ok := s.info[string(body)]
	s.infoMu.RUnlock()
	if ok {
		return ci.model, ci.turn
	}
	ci.model, ci.turn = readChat(body)
	s.infoMu.Lock()
	if s.info == nil || len(s.info) >= maxChatInfo {
		s.info = make(map[string]chatInfo)
	}
	s.info[string(body)] = ci
	s.infoMu.Unlock()
	return ci.model, ci.turn
}

// readChat reads a request body's model and counts its assistant messages:
// chat completions' "messages", or the assistant turns of a Responses
// "input" (each run of assistant message and function_call items is one
// assistant message: a turn with calls and no text has no message item). A
// body that is neither is turn 1 of no model.
func readChat(body []byte) (model string, turn int) {
	type item struct {
		Type string `json:"type"`
		Role string `json:"role"`
	}
	var chat struct {
		Model    string `json:"model"`
		Messages []item `json:"messages"`
		Input    any    `json:"input"`
	}
	_ = json.Unmarshal(body, &chat) // the matcher reports what does not fit
	turn = 1
	for _, m := range chat.Messages {
		if m.Role == "assistant" {
			turn++
		}
	}
	var input struct {
		Input []item `json:"input"`
	}
	if _, isList := chat.Input.([]any); isList && json.Unmarshal(body, &input) == nil {
		inAssistant := false
		for _, it := range input.Input {
			assistant := it.Type == "function_call" || it.Role == "assistant"
			if assistant && !inAssistant {
				turn++
			}
			inAssistant = assistant
		}
	}
	return chat.Model, turn
}

// isSSEReply reports a reply to stream: its Content-Type says so, or, with
// no header, it has events or its body starts as an event stream does (a
// comment, data:, or event: as Messages and Responses streams do).
func isSSEReply(r ServeReply) bool {
	if r.Header != nil {
		return strings.HasPrefix(r.Header.Get("Content-Type"), "text/event-stream")
	}
	head := string(r.Body[:min(len(r.Body), 6)])
	return len(r.Events) > 0 || strings.HasPrefix(head, ":") || strings.HasPrefix(head, "data:") || strings.HasPrefix(head, "event:")
}

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
		list.Data = append(list.Data, model{ID: m, Object: "model", Created: created, OwnedBy: "agentvcr"})
	}
	body, _ := json.Marshal(list)
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(body, '\n'))
}

// fail answers an error and logs it.
func (s *Server) fail(w http.ResponseWriter, status int, code, message string) {
	s.logf("agentvcr serve: %d: %s", status, message)
	writeError(w, status, code, message)
}

func (s *Server) logf(format string, args ...any) {
	if s.Log == nil {
		return
	}
	s.out.Lock()
	defer s.out.Unlock()
	fmt.Fprintf(s.Log, format+"\n", args...)
}
