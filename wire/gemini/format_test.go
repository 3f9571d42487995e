package gemini

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
)

func TestPathModel(t *testing.T) {
	tests := []struct {
		path   string
		model  string
		stream bool
		serves bool
	}{
		{"/v1beta/models/gemini-2.5-flash:streamGenerateContent", "gemini-2.5-flash", true, true},
		{"/s/clean/v1beta/models/gemini-3.5-flash-lite:generateContent", "gemini-3.5-flash-lite", false, true},
		{"/v1beta/models/:streamGenerateContent", "", false, false},
		{"/v1beta/models/a/b:generateContent", "", false, false},
		{"/v1beta/models/m:countTokens", "", false, false},
		{"/v1/chat/completions", "", false, false},
	}
	for _, tt := range tests {
		model, stream := PathModel(tt.path)
		if model != tt.model || stream != tt.stream || Format.Serves(tt.path) != tt.serves {
			t.Errorf("%s: model %q stream %v serves %v; want %q %v %v", tt.path, model, stream, Format.Serves(tt.path), tt.model, tt.stream, tt.serves)
		}
	}
	if got := Format.ServedPath("/s/x/v1beta/models/m:generateContent", "m"); got != "/v1beta/models/m:generateContent" {
		t.Errorf("ServedPath of a whole request = %s", got)
	}
	if got := Format.ServedPath("/v1beta/models/m:streamGenerateContent", "m"); got != "/v1beta/models/m:streamGenerateContent" {
		t.Errorf("ServedPath of a stream = %s", got)
	}
}

// The client posts to the model's path with alt=sse after the base URL's
// own query, the key in x-goog-api-key and nowhere else; Endpoint redacts
// a key in the base URL's query.
func TestClientRequest(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range Write("m", "c", 0, &agent.Turn{Text: "ok"}) {
			w.Write([]byte(e))
		}
	}))
	defer srv.Close()
	c := &agent.Client{BaseURL: srv.URL + "/?key=secret", APIKey: "k1", Model: "gemini-2.5-flash", Format: Format, HTTPClient: srv.Client()}
	turn, err := c.Complete(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "hi"}}, nil)
	if err != nil || turn.Text != "ok" {
		t.Fatalf("Complete = %v, %v", turn, err)
	}
	if got.URL.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || got.URL.RawQuery != "key=secret&alt=sse" {
		t.Errorf("posted to %s?%s", got.URL.Path, got.URL.RawQuery)
	}
	if got.Header.Get("x-goog-api-key") != "k1" || got.Header.Get("Authorization") != "" {
		t.Errorf("headers %v, want the key in x-goog-api-key only", got.Header)
	}
	if ep := c.Endpoint(); ep != srv.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=REDACTED" {
		t.Errorf("Endpoint = %s", ep)
	}
}

func TestErrorBody(t *testing.T) {
	got := string(ErrorBody(http.StatusTooManyRequests, "rate_limit_exceeded", "slow down"))
	if want := `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
