package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// reply is one scripted answer of the test gateway.
type reply struct {
	status int    // 0 means 200
	body   string // raw SSE (or an error body)
	// hold, when set, is called after the body was written and flushed, with
	// the request's context; the handler returns when it returns.
	hold func(r *http.Request)
}

// seen is one request the test gateway received.
type seen struct {
	Path    string
	Header  http.Header
	Body    string
	Request struct {
		Messages []Message `json:"messages"`
	}
}

// testGateway is a loopback chat-completions server that answers requests
// with scripted replies, in order, and records what it received.
type testGateway struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	replies []reply
	got     []seen
}

func newTestGateway(t *testing.T, replies ...reply) *testGateway {
	g := &testGateway{t: t, replies: replies}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *testGateway) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s := seen{Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)}
	if err := json.Unmarshal(body, &s.Request); err != nil {
		g.t.Errorf("request body is not JSON: %v", err)
	}
	g.mu.Lock()
	n := len(g.got)
	g.got = append(g.got, s)
	var rep reply
	if n < len(g.replies) {
		rep = g.replies[n]
	} else {
		rep = reply{status: http.StatusInternalServerError, body: fmt.Sprintf(`{"error":{"message":"no scripted reply for request %d"}}`, n+1)}
	}
	g.mu.Unlock()
	if rep.status == 0 {
		rep.status = http.StatusOK
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
	w.(http.Flusher).Flush()
	if rep.hold != nil {
		rep.hold(r)
	}
}

func (g *testGateway) requests() []seen {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]seen(nil), g.got...)
}

func (g *testGateway) client() *Client {
	return &Client{BaseURL: g.srv.URL + "/v1", APIKey: "sk-test", Model: "test-model", HTTPClient: g.srv.Client()}
}

// sseCalls is a stream whose turn asks for the calls given as id, name,
// arguments triples, each call at index i+1, its arguments in two pieces.
func sseCalls(text string, triples ...string) string {
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
