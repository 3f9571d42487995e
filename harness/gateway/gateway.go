package gateway

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/apierror"
	"github.com/agentvcr/agentvcr/wire"
)

// ErrInvariant marks a request the scripted gateway refused because its
// messages broke the format's invariants (a call without exactly one result,
// a result pointing at no call; in Messages, a tool_use not answered first
// thing in the next user message). A real gateway answers 400 too.
var ErrInvariant = errors.New("request breaks the message invariants")

// A Gateway is the project's scripted stand-in for a model gateway: it
// speaks every wire format of package wire on that format's own path
// (wire.ForPath), with its key header (agent.Format.Key), its request
// decoder and its clean stream (agent.Format.Write), answers from scripts
// (the request's "model" picks one), and checks the format's message
// invariants on every request it receives. It is what the base cassettes are
// recorded from, through the same recording path a user runs against a live
// gateway; it is never presented as a live model.
type Gateway struct {
	scripts map[string]Script
	key     string

	mu       sync.Mutex
	requests int
	refused  []error
}

// New returns a gateway playing scripts. When key is not empty every
// request must carry "Authorization: Bearer <key>", or it gets a 401.
func New(key string, scripts ...Script) *Gateway {
	g := &Gateway{scripts: make(map[string]Script, len(scripts)), key: key}
	for _, s := range scripts {
		g.scripts[s.Name] = s
	}
	return g
}

// Start serves the gateway on a loopback port. It returns the base URL to
// give a client (ending in /v1) and a function that shuts the server down.
func (g *Gateway) Start() (baseURL string, stop func()) {
	srv := httptest.NewServer(g)
	return srv.URL + "/v1", srv.Close
}

// received is how many requests the gateway has received.
func (g *Gateway) received() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.requests
}

// Refused returns the requests refused so far, each error wrapping
// ErrInvariant (the messages broke the invariants) or ErrEchoMissing (they
// dropped what the model wants echoed); empty when every request was valid.
func (g *Gateway) Refused() []error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]error(nil), g.refused...)
}

// ServeHTTP answers one request in the format its path names.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.requests++
	g.mu.Unlock()

	f := wire.ForPath(r.URL.Path)
	if f == nil {
		apierror.Write(w, nil, http.StatusNotFound, "not_found", fmt.Sprintf("no route for %s", r.URL.Path))
		return
	}
	if r.Method != http.MethodPost {
		apierror.Write(w, f, http.StatusMethodNotAllowed, "invalid_request_error", "use POST")
		return
	}
	if g.key != "" && f.Key(r.Header) != g.key {
		apierror.Write(w, f, http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided.")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		apierror.Write(w, f, http.StatusBadRequest, "invalid_request_error", "cannot read body: "+err.Error())
		return
	}
	req, err := f.RequestOf(r.URL.Path, body)
	if errors.Is(err, agent.ErrInvalidMessages) {
		g.mu.Lock()
		g.refused = append(g.refused, fmt.Errorf("%w: %w", ErrInvariant, err))
		g.mu.Unlock()
		apierror.Write(w, f, http.StatusBadRequest, "invalid_request_error", "messages: "+err.Error())
		return
	}
	if err != nil {
		apierror.Write(w, f, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	if !req.Stream {
		apierror.Write(w, f, http.StatusBadRequest, "invalid_request_error", onlyStreams(f, req.Model))
		return
	}
	script, ok := g.scripts[req.Model]
	if !ok {
		apierror.Write(w, f, http.StatusNotFound, "model_not_found", fmt.Sprintf("the model %q does not exist", req.Model))
		return
	}
	if err := checkEcho(script, req.Messages); err != nil {
		g.mu.Lock()
		g.refused = append(g.refused, err)
		g.mu.Unlock()
		// DeepSeek's and Gemini's refusals, OpenAI-shaped on every route.
		apierror.Write(w, nil, http.StatusBadRequest, "invalid_request_error", strings.TrimPrefix(err.Error(), ErrEchoMissing.Error()+": "))
		return
	}
	turn := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turn++
		}
	}
	if turn >= len(script.Turns) {
		apierror.Write(w, f, http.StatusBadRequest, "invalid_request_error",
			fmt.Sprintf("script %q has %d replies; request %d asks for one more", script.Name, len(script.Turns), turn+1))
		return
	}
	reply := script.Turns[turn]
	if reply.Status != 0 {
		apierror.Write(w, f, reply.Status, "scripted_error", fmt.Sprintf("scripted %d %s", reply.Status, http.StatusText(reply.Status)))
		return
	}
	w.Header().Set("Content-Type", f.StreamContentType())
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, event := range Stream(f, req.Model, script.Name, turn, reply) {
		w.Write(f.FrameEvent([]byte(event)))
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// onlyStreams is the refusal of a request that does not ask for a stream:
// set "stream": true, or, for a format whose path says it (Gemini's
// :generateContent), post to the streaming path.
func onlyStreams(f *agent.Format, model string) string {
	if f.PathModel != nil {
		path := f.Path(model)
		if f.Query != "" {
			path += "?" + f.Query
		}
		return "this gateway only streams: post to " + path
	}
	return "this gateway only streams: set \"stream\": true"
}
