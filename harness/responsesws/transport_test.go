package responsesws_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/harness/responsesws"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/internal/streamtest"
)

// conversation serves a call, then a message, and keeps what it was asked.
type conversation struct {
	mu   sync.Mutex
	seen []serve.Request
}

const callItem = streamtest.ResponsesCall

func (c *conversation) route(f serve.Fault) func(string) (*serve.Route, error) {
	return func(string) (*serve.Route, error) {
		return &serve.Route{Fault: f, Answer: func(r serve.Request) (serve.Reply, error) {
			c.mu.Lock()
			c.seen = append(c.seen, r)
			c.mu.Unlock()
			return serve.Reply{Body: streamtest.ResponsesTurn(r.Turn)}, nil
		}}, nil
	}
}

// post sends one Responses request through the client and reads its body.
func post(t *testing.T, client *http.Client, base, input string) (int, string) {
	t.Helper()
	body := `{"model":"m","input":[` + input + `],"stream":true}`
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/responses", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

const (
	user   = `{"role":"user","content":"hi"}`
	output = `{"type":"function_call_output","call_id":"call_1","output":"a.txt"}`
	// theirs is the client's own copy of the call: not the server's bytes
	theirs = `{"type":"function_call","call_id":"call_1","name":"glob","arguments":"{\"pattern\":\"*\"}"}`
)

func start(t *testing.T, f serve.Fault) (*conversation, string, *[]string, *responsesws.Transport) {
	c := &conversation{}
	base, stop, err := (&serve.Server{Route: c.route(f)}).Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	var mu sync.Mutex
	var sent []string
	tr := &responsesws.Transport{Frames: func(out bool, frame []byte) {
		if out {
			mu.Lock()
			sent = append(sent, string(frame))
			mu.Unlock()
		}
	}}
	t.Cleanup(func() { tr.Close() })
	return c, base, &sent, tr
}

func TestTransportContinues(t *testing.T) {
	c, base, sent, tr := start(t, serve.Fault{})
	client := &http.Client{Transport: tr}
	status, body := post(t, client, base, user)
	if status != 200 || !strings.Contains(body, "event: response.completed\ndata: {\"type\":\"response.completed\"") {
		t.Fatalf("first: %d %q", status, body)
	}
	if status, body = post(t, client, base, user+","+theirs+","+output); status != 200 || !strings.Contains(body, `"text":"done"`) {
		t.Fatalf("second: %d %q", status, body)
	}
	want := []string{
		`{"type":"response.create","model":"m","input":[` + user + `],"stream":true}`,
		`{"type":"response.create","previous_response_id":"resp_1","model":"m","input":[` + output + `],"stream":true}`,
	}
	if strings.Join(*sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("frames sent:\n%s\nwant\n%s", strings.Join(*sent, "\n"), strings.Join(want, "\n"))
	}
	// the server resolved the continuation with the call it holds
	if got, want := string(c.seen[1].Body), `{"model":"m","input":[`+user+","+callItem+","+output+`],"stream":true}`; got != want {
		t.Errorf("the server's second request:\n got %s\nwant %s", got, want)
	}
	for _, r := range c.seen {
		if r.Transport != serve.TransportWebSocket {
			t.Errorf("a request over %q", r.Transport)
		}
	}
}

func TestTransportSendsAllAgainWhenThePreviousIsLost(t *testing.T) {
	c, base, sent, tr := start(t, serve.Fault{Kind: serve.FaultForgetPrevious})
	client := &http.Client{Transport: tr}
	post(t, client, base, user)
	if status, _ := post(t, client, base, user+","+theirs+","+output); status != 200 {
		t.Fatalf("second: %d", status)
	}
	if len(*sent) != 3 || !strings.Contains((*sent)[1], `"previous_response_id":"resp_1"`) || strings.Contains((*sent)[2], "previous_response_id") {
		t.Errorf("frames sent: %q; want the continuation, then the whole input", *sent)
	}
	if len(c.seen) != 2 || !strings.Contains(string(c.seen[1].Body), theirs) {
		t.Errorf("the server answered %d requests; the second should carry the client's own copy of the call", len(c.seen))
	}
}

func TestTransportFallsBackOn426(t *testing.T) {
	c, base, sent, tr := start(t, serve.Fault{Kind: serve.FaultRefuseUpgrade})
	client := &http.Client{Transport: tr}
	post(t, client, base, user)
	if status, _ := post(t, client, base, user+","+theirs+","+output); status != 200 {
		t.Fatalf("second: %d", status)
	}
	if len(*sent) != 0 || len(c.seen) != 2 {
		t.Errorf("%d frames sent, %d requests served; want none and 2 over HTTP", len(*sent), len(c.seen))
	}
	for _, r := range c.seen {
		if r.Transport != "" {
			t.Errorf("a request over %q after the 426", r.Transport)
		}
	}
}

func TestTransportErrorFrameIsAStatus(t *testing.T) {
	_, base, _, tr := start(t, serve.Fault{Kind: serve.Fault429, After: 3})
	req, _ := http.NewRequest(http.MethodPost, base+"/responses", strings.NewReader(`{"model":"m","input":[`+user+`]}`))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	var e struct {
		Error struct{ Code string }
	}
	json.Unmarshal(b, &e)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || e.Error.Code != "rate_limit_exceeded" {
		t.Errorf("%d, Retry-After %q, %s; want 429, 3, rate_limit_exceeded", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	// the connection carries the retry
	if status, _ := post(t, &http.Client{Transport: tr}, base, user); status != 200 {
		t.Errorf("the retry: %d", status)
	}
}

func TestTransportCutStreamEndsTheBody(t *testing.T) {
	_, base, _, tr := start(t, serve.Fault{Kind: serve.FaultFrameClose, After: 1})
	status, body := post(t, &http.Client{Transport: tr}, base, user)
	if status != 200 || strings.Contains(body, "response.completed") || !strings.Contains(body, "response.created") {
		t.Errorf("%d %q; want the first event, then the end", status, body)
	}
}

// TestTransportDropsFramesNoRequestAskedFor: frames after a response's end
// (a second response in the same stream) are dropped before the next
// request goes, not read as its answer.
func TestTransportDropsFramesNoRequestAskedFor(t *testing.T) {
	second := "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_again\"}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_again\",\"output\":[]}}\n\n"
	c := &conversation{}
	inner := c.route(serve.Fault{})
	base, stop, err := (&serve.Server{Route: func(name string) (*serve.Route, error) {
		r, _ := inner(name)
		answer := r.Answer
		r.Answer = func(req serve.Request) (serve.Reply, error) {
			reply, err := answer(req)
			if req.Turn == 1 {
				reply.Body = append(reply.Body, second...)
			}
			return reply, err
		}
		return r, nil
	}}).Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var stale []string
	var mu sync.Mutex
	tr := &responsesws.Transport{Stale: func(f []byte) { mu.Lock(); stale = append(stale, string(f)); mu.Unlock() }}
	defer tr.Close()
	client := &http.Client{Transport: tr}
	post(t, client, base, user)
	// the server writes the leftover frames right after the first
	// response's; an agent runs its tools before its next request
	time.Sleep(200 * time.Millisecond)
	_, body := post(t, client, base, user+","+theirs+","+output)
	if !strings.Contains(body, `"text":"done"`) || strings.Contains(body, "resp_again") {
		t.Errorf("the second answer: %q", body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stale) != 2 || !strings.Contains(stale[0], "resp_again") {
		t.Errorf("dropped %q; want the second response's 2 frames", stale)
	}
}
