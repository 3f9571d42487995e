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
