package agent_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/google/go-cmp/cmp"
)

func TestClientRequest(t *testing.T) {
	tests := []struct {
		reason   string
		base     string
		key      string
		wantPath string
		wantAuth string
	}{
		{"base without a trailing slash", "/v1", "sk-1", "/v1/chat/completions", "Bearer sk-1"},
		{"base with a trailing slash", "/v1/", "sk-1", "/v1/chat/completions", "Bearer sk-1"},
		{"no key, no Authorization header", "", "", "/chat/completions", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			g := streamtest.NewGateway(t, streamtest.Reply{Body: streamtest.SSECalls("hi")})
			c := &agent.Client{BaseURL: g.URL() + tt.base, APIKey: tt.key, Model: "m", HTTPClient: g.HTTPClient(), Format: chat.Format}
			msgs := []agent.Message{{Role: agent.RoleUser, Content: "q"}}
			turn, err := c.Complete(context.Background(), msgs, streamtest.Defs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&agent.Turn{Text: "hi", FinishReason: "stop", ToolCalls: []agent.ToolCall{}}, turn); diff != "" {
				t.Errorf("turn (-want +got):\n%s", diff)
			}
			got := g.Requests()[0]
			body, _ := chat.Body("m", msgs, streamtest.Defs)
			want := []string{tt.wantPath, tt.wantAuth, "application/json", "text/event-stream", string(body)}
			have := []string{got.Path, got.Header.Get("Authorization"), got.Header.Get("Content-Type"), got.Header.Get("Accept"), got.Body}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("path, auth, content type, accept, body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientHTTPError(t *testing.T) {
	long := `{"error":{"message":"` + strings.Repeat("x", 600) + `"}}`
	tests := []struct {
		reason   string
		status   int
		body     string
		wantBody string
		wantMsg  string
	}{
		{"401 with a JSON body", 401, "{\"error\":{\"message\":\"Invalid API key\",\n \"type\":\"invalid_request_error\"}}\n",
			"{\"error\":{\"message\":\"Invalid API key\",\n \"type\":\"invalid_request_error\"}}\n",
			`gateway returned 401 Unauthorized: {"error":{"message":"Invalid API key", "type":"invalid_request_error"}}`},
		{"502 with an empty body", 502, "", "", "gateway returned 502 Bad Gateway"},
		{"a long body keeps its first 512 bytes", 429, long, long[:512], "gateway returned 429 Too Many Requests: " + long[:512]},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			g := streamtest.NewGateway(t, streamtest.Reply{Status: tt.status, Body: tt.body})
			turn, err := g.Client(chat.Format).Complete(context.Background(), nil, nil)
			var he *agent.HTTPError
			if !errors.As(err, &he) {
				t.Fatalf("err = %v (%T), want *HTTPError", err, err)
			}
			if turn != nil {
				t.Errorf("turn = %+v, want nil", turn)
			}
			if diff := cmp.Diff(&agent.HTTPError{StatusCode: tt.status, Body: tt.wantBody}, he); diff != "" {
				t.Errorf("HTTPError (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientStreamErrorKeepsPartialTurn(t *testing.T) {
	body := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"echo","arguments":"{\"te"}}]}}]}` + "\n\n" +
		`data: {"error":{"message":"upstream timeout","code":504}}` + "\n\n"
	g := streamtest.NewGateway(t, streamtest.Reply{Body: body})
	turn, err := g.Client(chat.Format).Complete(context.Background(), nil, nil)
	var se *agent.StreamError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StreamError", err)
	}
	if diff := cmp.Diff(&agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "echo", `{"te`)}}, turn); diff != "" {
		t.Errorf("partial turn (-want +got):\n%s", diff)
	}
}

// roundTripFunc lets a test stand in for the network, the way a cassette does.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestClientUsesInjectedTransport(t *testing.T) {
	var gotURL string
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		gotURL = r.URL.String()
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(streamtest.SSECalls("", "c9", "echo", `{"text":"hi"}`))), Request: r}, nil
	})
	c := &agent.Client{BaseURL: "http://gateway.invalid/v1/", Model: "m", HTTPClient: &http.Client{Transport: rt}, Format: chat.Format}
	turn, err := c.Complete(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if gotURL != "http://gateway.invalid/v1/chat/completions" {
		t.Errorf("url = %q", gotURL)
	}
	if diff := cmp.Diff([]agent.ToolCall{streamtest.Call("c9", "echo", `{"text":"hi"}`)}, turn.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// A client without a format refuses to send, saying where formats come
// from, and its Endpoint is the base URL alone.
func TestClientWithoutFormat(t *testing.T) {
	c := &agent.Client{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}
	_, err := c.Complete(context.Background(), nil, nil)
	if !errors.Is(err, agent.ErrNoFormat) || err.Error() != "agent: Client.Format is nil (pick one from package wire)" {
		t.Errorf("Complete: %v, want ErrNoFormat", err)
	}
	if got := c.Endpoint(); got != "http://127.0.0.1:1/v1" {
		t.Errorf("Endpoint() = %q", got)
	}
}
