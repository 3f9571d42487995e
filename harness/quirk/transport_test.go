package quirk

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/gateway"
)

func TestQuirkTransportBreaksLiveStreams(t *testing.T) {
	parallel := gateway.Script{Name: "parallel", Turns: []gateway.ScriptTurn{{Calls: []gateway.ScriptCall{
		{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}, {Name: "grep", Arguments: `{"pattern":"divide","glob":"**/*.js"}`}}}}}
	base, stop := gateway.New("", parallel).Start()
	defer stop()
	q, _ := ByName("index_plus_1")
	client := &http.Client{Transport: Transport(http.DefaultTransport, q, 1)}
	resp, err := client.Post(base+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"parallel","messages":[{"role":"user","content":"hi"}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"index":1,"id":"call_`) || !strings.Contains(string(body), `"index":2,"id":"call_`) {
		t.Errorf("indexes not shifted to 1 and 2:\n%s", body)
	}
	// Error responses pass untouched.
	resp, err = client.Post(base+"/chat/completions", "application/json", strings.NewReader(`{"model":"nosuch","stream":true}`))
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("error response: %v %v", resp.StatusCode, err)
	}
}

// A live answer whose Content-Type is an event stream in any case, with
// parameters, is rewritten too.
func TestQuirkTransportAnyCaseEventStream(t *testing.T) {
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"glob\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"
	next := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"TEXT/EVENT-STREAM;charset=utf-8"}}, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	q, _ := ByName("index_plus_1")
	req, _ := http.NewRequest("POST", "http://127.0.0.1:1/v1/chat/completions", strings.NewReader("{}"))
	resp, err := Transport(next, q, 1).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(got), `"index":1,"id":"call_a"`) {
		t.Errorf("the quirk was not applied to a TEXT/EVENT-STREAM answer:\n%s", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
