package serve

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A route with Preflight answers HEAD and GET elsewhere 200 with no body;
// Unrouted sees every other request there, its body read, before the 404.
// Without them the same requests get the 404 as before.
func TestServePreflightAndUnrouted(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	route := &Route{Answer: func(Request) (Reply, error) { return Reply{}, nil }, Preflight: true,
		Unrouted: func(r Request) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, r.Case+" "+r.Method+" "+r.Path+" "+string(r.Body))
		}}
	plain := &Route{Answer: route.Answer}
	base := serveOn(t, &Server{Route: func(name string) (*Route, error) {
		if name == "plain" {
			return plain, nil
		}
		return route, nil
	}})
	root := strings.TrimSuffix(base, "/v1")
	tests := []struct {
		method, path, body string
		status             int
		reply              string
	}{
		{"HEAD", "/s/c/api/hello", "", 200, ""},
		{"GET", "/s/c/api/hello", "", 200, ""},
		{"POST", "/s/c/v1/completions", `{"prompt":"hi"}`, 404, "no route for POST /s/c/v1/completions"},
		{"HEAD", "/s/plain/api/hello", "", 404, ""},
		{"POST", "/s/plain/v1/completions", `{"prompt":"hi"}`, 404, "no route for POST /s/plain/v1/completions"},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, root+tt.path, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.reply) || (tt.status == 200 && len(body) > 0) {
			t.Errorf("%s %s: %d %q, want %d with %q", tt.method, tt.path, resp.StatusCode, body, tt.status, tt.reply)
		}
	}
	if d := cmp.Diff([]string{`c POST /v1/completions {"prompt":"hi"}`}, seen); d != "" {
		t.Errorf("Unrouted saw (-want +got):\n%s", d)
	}
}
