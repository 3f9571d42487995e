package agent_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

// The path is joined to the base URL's path, never into its query, and the
// URL shown in messages carries no credential.
func TestClientEndpoint(t *testing.T) {
	tests := []struct {
		reason   string
		base     string
		wantSent string // where the request goes
		wantShow string // what messages print
	}{
		{"plain", "https://gw.example/v1", "https://gw.example/v1/chat/completions", "https://gw.example/v1/chat/completions"},
		{"trailing slash", "https://gw.example/v1/", "https://gw.example/v1/chat/completions", "https://gw.example/v1/chat/completions"},
		{"Azure query", "https://x.openai.azure.com/openai/v1?api-version=2024-10-21", "https://x.openai.azure.com/openai/v1/chat/completions?api-version=2024-10-21", "https://x.openai.azure.com/openai/v1/chat/completions?api-version=2024-10-21"},
		{"query after a trailing slash", "https://gw.example/v1/?api-version=1", "https://gw.example/v1/chat/completions?api-version=1", "https://gw.example/v1/chat/completions?api-version=1"},
		{"user and password", "https://me:s3cret@gw.example/v1", "https://me:s3cret@gw.example/v1/chat/completions", "https://gw.example/v1/chat/completions"},
		{"a token as the user", "https://sk-abcdef@gw.example/v1", "https://sk-abcdef@gw.example/v1/chat/completions", "https://gw.example/v1/chat/completions"},
		{"a key in the query", "https://gw.example/v1?key=AIzaSECRET&alt=sse", "https://gw.example/v1/chat/completions?key=AIzaSECRET&alt=sse", "https://gw.example/v1/chat/completions?alt=sse&key=REDACTED"},
		{"no path", "http://127.0.0.1:8080", "http://127.0.0.1:8080/chat/completions", "http://127.0.0.1:8080/chat/completions"},
		{"an escaped path", "https://gw.example/a%2Fb/v1", "https://gw.example/a%2Fb/v1/chat/completions", "https://gw.example/a%2Fb/v1/chat/completions"},
	}
	for _, tt := range tests {
		c := &agent.Client{BaseURL: tt.base, Format: chat.Format}
		if diff := cmp.Diff(tt.wantSent, c.EndpointURL()); diff != "" {
			t.Errorf("%s: sent to (-want +got):\n%s", tt.reason, diff)
		}
		if diff := cmp.Diff(tt.wantShow, c.Endpoint()); diff != "" {
			t.Errorf("%s: shown as (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// The request really goes to the joined path with the query kept.
func TestClientEndpointQueryReachesServer(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.RequestURI()
		fmt.Fprint(w, okStream)
	}))
	defer srv.Close()
	c := &agent.Client{BaseURL: srv.URL + "/openai/v1?api-version=2024-10-21", Format: chat.Format}
	if _, err := c.Complete(guard(t), nil, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("/openai/v1/chat/completions?api-version=2024-10-21", got); diff != "" {
		t.Errorf("request URI (-want +got):\n%s", diff)
	}
}

// A 200 whose body is not an event stream says what came back.
func TestClientNotAStream(t *testing.T) {
	tests := []struct {
		reason      string
		contentType string
		body        string
		want        string // "" when the merge's own error stays
	}{
		{"an HTML page", "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>\x1b[31mlogin</body></html>",
			`the gateway answered with Content-Type text/html; charset=utf-8, not an event stream; the body starts: <!DOCTYPE html> <html><head><title>Sign in</title></head> <body>` + "\x1b" + `[31mlogin</body></html>`},
		{"a non-streaming JSON answer", "application/json", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat("long ", 60) + `"},"finish_reason":"stop"}]}`,
			`the gateway answered with Content-Type application/json, not an event stream; the body starts: {"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"long long long long long long long long long long long long long long long long long long l…`},
		{"an empty body", "", "", "the gateway answered with no Content-Type and an empty body, not an event stream"},
		{"a real stream cut short keeps its error", "text/event-stream", "data: {\"choices\":[]}\n\n", ""},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil
			if tt.contentType != "" {
				w.Header().Set("Content-Type", tt.contentType)
			}
			fmt.Fprint(w, tt.body)
		}))
		_, err := (&agent.Client{BaseURL: srv.URL, Format: chat.Format}).Complete(guard(t), nil, nil)
		srv.Close()
		var ns *agent.NotStreamError
		if tt.want == "" {
			if errors.As(err, &ns) || !errors.Is(err, agent.ErrTruncatedStream) {
				t.Errorf("%s: err = %v, want ErrTruncatedStream alone", tt.reason, err)
			}
			continue
		}
		if !errors.As(err, &ns) {
			t.Fatalf("%s: err = %v (%T), want *NotStreamError", tt.reason, err, err)
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("%s: message (-want +got):\n%s", tt.reason, diff)
		}
		if !errors.Is(err, agent.ErrTruncatedStream) {
			t.Errorf("%s: the merge's error is not kept: %v", tt.reason, err)
		}
	}
}
