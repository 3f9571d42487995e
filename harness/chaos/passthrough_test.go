package chaos_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/chaos"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
)

// What is not a streamed answer passes the proxy untouched, whatever the
// quirk and fault: a JSON answer on the chat endpoint, an event stream on
// a path no format serves, a GET. A streamed answer on the chat endpoint
// is the one that changes (proved failing with the path check taken out
// of the proxy's rewrite).
func TestProxyPassesWhatIsNotAnAnswer(t *testing.T) {
	const stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/chat/completions" && strings.Contains(r.URL.RawQuery, "json"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices":[{"message":{"content":"hi"}}]}`)
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"data":[]}`)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, stream)
		}
	}))
	defer upstream.Close()
	crlf, _ := quirk.ByName("crlf")
	fault, err := serve.ParseFault("error-event:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*chaos.Chaos{{Quirk: &crlf}, {Fault: fault}} {
		p, err := record.NewProxy(upstream.URL+"/v1", "", nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(c.Handler(p))
		for _, tt := range []struct {
			method, path string
			changed      bool
			want         string
		}{
			{http.MethodPost, "/v1/chat/completions?json", false, `{"choices":[{"message":{"content":"hi"}}]}`},
			{http.MethodGet, "/v1/models", false, `{"data":[]}`},
			{http.MethodPost, "/v1/embeddings", false, stream},
			{http.MethodPost, "/v1/chat/completions", true, stream},
		} {
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(`{"stream":true}`))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if got := string(body) != tt.want; got != tt.changed {
				t.Errorf("%s %s %s: changed %v, want %v: %q", c.Fault, tt.method, tt.path, got, tt.changed, body)
			}
		}
		srv.Close()
		p.Stop()
	}
}
