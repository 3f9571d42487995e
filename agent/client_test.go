package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

var testDefs = []tools.Definition{{Type: "function", Function: tools.Function{
	Name: "echo", Description: "Echo the text.", Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
}}}

func TestRequestBodyIsDeterministic(t *testing.T) {
	msgs := []Message{
		{Role: RoleSystem, Content: "sys <&>"},
		{Role: RoleUser, Content: "why red?"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{call("c1", "echo", `{"text":"x"}`)}},
		{Role: RoleTool, ToolCallID: "c1", Content: "x"},
	}
	want := `{"model":"m","messages":[{"role":"system","content":"sys \u003c\u0026\u003e"},{"role":"user","content":"why red?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"text\":\"x\"}"}}]},` +
		`{"role":"tool","content":"x","tool_call_id":"c1"}],` +
		`"tools":[{"type":"function","function":{"name":"echo","description":"Echo the text.","parameters":{"type":"object","properties":{"text":{"type":"string"}}}}}],"stream":true}`
	for i := 0; i < 3; i++ {
		got, err := requestBody("m", msgs, testDefs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Fatalf("body (-want +got):\n%s", diff)
		}
	}
	got, _ := requestBody("m", nil, nil)
	if diff := cmp.Diff(`{"model":"m","messages":[],"stream":true}`, string(got)); diff != "" {
		t.Errorf("empty body (-want +got):\n%s", diff)
	}
}

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
			g := newTestGateway(t, reply{body: sseCalls("hi")})
			c := &Client{BaseURL: g.srv.URL + tt.base, APIKey: tt.key, Model: "m", HTTPClient: g.srv.Client()}
			msgs := []Message{{Role: RoleUser, Content: "q"}}
			turn, err := c.Complete(context.Background(), msgs, testDefs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&Turn{Text: "hi", FinishReason: "stop", ToolCalls: []ToolCall{}}, turn); diff != "" {
				t.Errorf("turn (-want +got):\n%s", diff)
			}
			got := g.requests()[0]
			body, _ := requestBody("m", msgs, testDefs)
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
			g := newTestGateway(t, reply{status: tt.status, body: tt.body})
			turn, err := g.client().Complete(context.Background(), nil, nil)
			var he *HTTPError
			if !errors.As(err, &he) {
				t.Fatalf("err = %v (%T), want *HTTPError", err, err)
			}
			if turn != nil {
				t.Errorf("turn = %+v, want nil", turn)
			}
			if diff := cmp.Diff(&HTTPError{StatusCode: tt.status, Body: tt.wantBody}, he); diff != "" {
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
	g := newTestGateway(t, reply{body: body})
	turn, err := g.client().Complete(context.Background(), nil, nil)
	var se *StreamError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StreamError", err)
	}
	if diff := cmp.Diff(&Turn{ToolTurn: true, ToolCalls: []ToolCall{call("c1", "echo", `{"te`)}}, turn); diff != "" {
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
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(sseCalls("", "c9", "echo", `{"text":"hi"}`))), Request: r}, nil
	})
	c := &Client{BaseURL: "http://gateway.invalid/v1/", Model: "m", HTTPClient: &http.Client{Transport: rt}}
	turn, err := c.Complete(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if gotURL != "http://gateway.invalid/v1/chat/completions" {
		t.Errorf("url = %q", gotURL)
	}
	if diff := cmp.Diff([]ToolCall{call("c9", "echo", `{"text":"hi"}`)}, turn.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestAPIByName(t *testing.T) {
	tests := []struct {
		reason  string
		name    string
		want    *API
		wantErr string
	}{
		{"chat completions by its name", "chat", ChatCompletions, ""},
		{"unknown name lists the known ones", "gemini", nil, `unknown api "gemini" (want ` + apiNames() + `)`},
	}
	for _, tt := range tests {
		got, err := APIByName(tt.name)
		if got != tt.want || fmt.Sprint(err) != fmt.Sprint(errOrNil(tt.wantErr)) {
			t.Errorf("%s: APIByName(%q) = %v, %v; want %v, %s", tt.reason, tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func apiNames() string {
	var names []string
	for _, a := range APIs() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

func TestDetectAPI(t *testing.T) {
	tests := []struct {
		reason string
		head   string
		want   *API
	}{
		{"a chat chunk", `data: {"id":"c","object":"chat.completion.chunk","choices":[]}` + "\n\n", ChatCompletions},
		{"an event: line of Messages", "event: message_start\ndata: {}\n\n", AnthropicMessages},
		{"Messages data without event: lines", `data: {"type":"message_start","message":{"id":"m"}}` + "\n\n", AnthropicMessages},
		{"a ping first (Messages)", ": comment\r\nevent: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n", AnthropicMessages},
		{"a content block before message_start", `data: {"type":"content_block_start","index":0}` + "\n\n", AnthropicMessages},
		{"Responses", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", Responses},
		{"an error first, then Messages", "event: error\ndata: {\"type\":\"error\"}\n\nevent: message_start\n", AnthropicMessages},
		{"an error object alone", `data: {"type":"error","error":{"message":"x"}}` + "\n\n", ChatCompletions},
		{"[DONE] then nothing", "data: [DONE]\n\n", ChatCompletions},
		{"empty", "", ChatCompletions},
	}
	for _, tt := range tests {
		if got := DetectAPI([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: DetectAPI = %s, want %s", tt.reason, got.Name, tt.want.Name)
		}
	}
}
