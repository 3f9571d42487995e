package streamtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
)

// Reply is one scripted answer of the test gateway.
type Reply struct {
	Status int    // 0 means 200
	Body   string // raw SSE (or an error body)
	// Hold, when set, is called after the body was written and flushed, with
	// the request's context; the handler returns when it returns.
	Hold func(r *http.Request)
}

// Seen is one request the test gateway received.
type Seen struct {
	Path    string
	Header  http.Header
	Body    string
	Request struct {
		Messages []agent.Message `json:"messages"`
	}
}

// Gateway is a loopback chat-completions server that answers requests
// with scripted replies, in order, and records what it received.
type Gateway struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	replies []Reply
	got     []Seen
}

// NewGateway starts a Gateway that answers with replies, in order, and
// stops it when the test ends.
func NewGateway(t *testing.T, replies ...Reply) *Gateway {
	g := &Gateway{t: t, replies: replies}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *Gateway) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s := Seen{Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)}
	if err := json.Unmarshal(body, &s.Request); err != nil {
		g.t.Errorf("request body is not JSON: %v", err)
	}
	g.mu.Lock()
	n := len(g.got)
	g.got = append(g.got, s)
	var rep Reply
	if n < len(g.replies) {
		rep = g.replies[n]
	} else {
		rep = Reply{Status: http.StatusInternalServerError, Body: fmt.Sprintf(`{"error":{"message":"no scripted reply for request %d"}}`, n+1)}
	}
	g.mu.Unlock()
	if rep.Status == 0 {
		rep.Status = http.StatusOK
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(rep.Status)
	io.WriteString(w, rep.Body)
	w.(http.Flusher).Flush()
	if rep.Hold != nil {
		rep.Hold(r)
	}
}

// Requests returns the requests received so far, in order.
func (g *Gateway) Requests() []Seen {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Seen(nil), g.got...)
}

// Client is a client of the gateway speaking f.
func (g *Gateway) Client(f *agent.Format) *agent.Client {
	return &agent.Client{BaseURL: g.srv.URL + "/v1", APIKey: "sk-test", Model: "test-model", HTTPClient: g.srv.Client(), Format: f}
}

// SSECalls is a chat-completions stream whose turn asks for the calls given as id, name,
// arguments triples, each call at index i+1, its arguments in two pieces.
func SSECalls(text string, triples ...string) string {
	var b strings.Builder
	chunk := func(delta string, finish string) {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		b.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + "}]}\n\n")
	}
	if text != "" {
		q, _ := json.Marshal(text)
		chunk(`{"content":`+string(q)+`}`, "")
	}
	for i := 0; i+2 < len(triples); i += 3 {
		id, name, args := triples[i], triples[i+1], triples[i+2]
		half := len(args) / 2
		a1, _ := json.Marshal(args[:half])
		a2, _ := json.Marshal(args[half:])
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]}`, i/3+1, id, name, a1), "")
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, i/3+1, a2), "")
	}
	finish := "stop"
	if len(triples) > 0 {
		finish = "tool_calls"
	}
	chunk(`{}`, finish)
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// URL is the gateway's root URL (no /v1).
func (g *Gateway) URL() string { return g.srv.URL }

// HTTPClient is an HTTP client for the gateway.
func (g *Gateway) HTTPClient() *http.Client { return g.srv.Client() }
