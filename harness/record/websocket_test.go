package record

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentvcr/agentvcr/harness/responsesws"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// wsUpstream is a scripted Responses gateway over a WebSocket: a call,
// then a message.
func wsUpstream(t *testing.T, f serve.Fault) string {
	t.Helper()
	s := &serve.Server{Route: func(string) (*serve.Route, error) {
		return &serve.Route{Fault: f, Answer: func(r serve.Request) (serve.Reply, error) {
			return serve.Reply{Body: streamtest.ResponsesTurn(r.Turn)}, nil
		}}, nil
	}}
	base, stop, err := s.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	return base
}

const (
	wsUser   = `{"role":"user","content":"hi"}`
	wsCall   = `{"type":"function_call","call_id":"call_1","name":"glob","arguments":"{\"pattern\":\"*\"}"}`
	wsOutput = `{"type":"function_call_output","call_id":"call_1","output":"a.txt"}`
	wsKey    = "sk-live-websocket-secret-1234567890"
)

// wsConversation posts the two turns through a WebSocket client and
// returns the bodies it read.
func wsConversation(t *testing.T, tr http.RoundTripper, base string) []string {
	t.Helper()
	var bodies []string
	for _, input := range []string{wsUser, wsUser + "," + wsCall + "," + wsOutput} {
		req, _ := http.NewRequest(http.MethodPost, base+"/responses", strings.NewReader(`{"model":"m","input":[`+input+`],"stream":true}`))
		req.Header.Set("Authorization", "Bearer "+wsKey)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%d %v: %s", resp.StatusCode, err, b)
		}
		bodies = append(bodies, string(b))
	}
	return bodies
}

func TestRecordWebSocketCycles(t *testing.T) {
	upstream := wsUpstream(t, serve.Fault{})
	path := filepath.Join(t.TempDir(), "ws.yaml")
	var log bytes.Buffer
	p, err := NewProxy(upstream, path, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	var sent []string
	var mu sync.Mutex
	tr := &responsesws.Transport{Frames: func(out bool, frame []byte) {
		if out {
			mu.Lock()
			sent = append(sent, string(frame))
			mu.Unlock()
		}
	}}
	got := wsConversation(t, tr, srv.URL+"/v1")
	tr.Close()
	srv.Close()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 2 || !strings.Contains(sent[1], `"previous_response_id":"resp_1"`) {
		t.Errorf("frames sent: %q; want the second a continuation", sent)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	y := string(data)
	for _, want := range []string{
		// the second request as it stands: the held call (the upstream's bytes), then the output
		`{"model":"m","input":[{"role":"user","content":"hi"},` + streamtest.ResponsesCall + `,` + wsOutput + `],"stream":true}`,
		"X-Agentvcr-Transport:\n                - websocket\n",
		"event: response.completed",
	} {
		if !strings.Contains(y, want) {
			t.Errorf("the cassette lacks %q:\n%s", want, y)
		}
	}
	if strings.Contains(y, wsKey) {
		t.Error("the key is in the cassette")
	}
	if n := strings.Count(y, "- request:"); n != 2 {
		t.Errorf("%d interactions recorded, want 2:\n%s", n, y)
	}

	// the cassette replays over a WebSocket and over HTTP alike
	router := &serve.CassetteRouter{Cassettes: []serve.ServedCassette{{Name: "ws", Data: data}}, Match: serve.MatchBody}
	base, stop, err := (&serve.Server{Route: router.Route}).Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	replayed := wsConversation(t, &responsesws.Transport{}, base)
	if strings.Join(replayed, "") != strings.Join(got, "") {
		t.Errorf("replayed over a WebSocket:\n%s\nwant what was recorded:\n%s", replayed, got)
	}
	// over HTTP a client sends its own copy of the call, not the upstream's
	// item (its id): matched by turn, the same cassette answers it
	byTurn := &serve.CassetteRouter{Cassettes: []serve.ServedCassette{{Name: "ws", Data: data}}, Match: serve.MatchTurn}
	base, stop, err = (&serve.Server{Route: byTurn.Route}).Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if over := wsConversation(t, http.DefaultTransport, base); strings.Join(over, "") != strings.Join(got, "") {
		t.Errorf("replayed over HTTP:\n%s\nwant what was recorded:\n%s", over, got)
	}
}

// upcase is a Rewriter that turns "done" into "DONE".
type upcase struct{}

func (upcase) Write(p []byte) ([]byte, error) {
	return bytes.ReplaceAll(p, []byte("done"), []byte("DONE")), nil
}
func (upcase) Close() ([]byte, error) { return nil, nil }

func TestProxyRewritesFrames(t *testing.T) {
	upstream := wsUpstream(t, serve.Fault{})
	p, err := NewProxy(upstream, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Rewrite = func(*http.Request, []byte) Rewriter { return upcase{} }
	srv := httptest.NewServer(p)
	defer srv.Close()
	got := wsConversation(t, &responsesws.Transport{}, srv.URL+"/v1")
	if !strings.Contains(got[1], `"text":"DONE"`) || strings.Contains(got[1], `"done"`) {
		t.Errorf("the second answer: %s", got[1])
	}
}

func TestProxyPassesARefusedUpgrade(t *testing.T) {
	upstream := wsUpstream(t, serve.Fault{Kind: serve.FaultRefuseUpgrade})
	path := filepath.Join(t.TempDir(), "ws.yaml")
	var log bytes.Buffer
	p, err := NewProxy(upstream, path, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	var sent int
	tr := &responsesws.Transport{Frames: func(bool, []byte) { sent++ }}
	wsConversation(t, tr, srv.URL+"/v1") // refused: the client posts instead, through the proxy
	srv.Close()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if sent != 0 {
		t.Errorf("%d frames sent after the upstream's 426", sent)
	}
	if !strings.Contains(log.String(), "the upstream refused the WebSocket with 426 (passed on, not recorded)") {
		t.Errorf("log: %s", log.String())
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "- request:"); n != 2 || strings.Contains(string(data), "X-Agentvcr-Transport") {
		t.Errorf("%d interactions, want the 2 POSTs over HTTP:\n%s", n, data)
	}
}
