package apierror

import (
	"net/http/httptest"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// Each format's error body is the shape its SDKs read.
func TestWriteShapes(t *testing.T) {
	tests := []struct {
		reason string
		api    *agent.Format
		status int
		want   string
	}{
		{"chat completions", chat.Format, 429, `{"error":{"code":"c","message":"m","type":"invalid_request_error"}}` + "\n"},
		{"Responses", responses.Format, 500, `{"error":{"code":"c","message":"m","type":"invalid_request_error"}}` + "\n"},
		{"no format", nil, 404, `{"error":{"code":"c","message":"m","type":"invalid_request_error"}}` + "\n"},
		{"Messages, rate limited", messages.Format, 429, `{"error":{"message":"m","type":"rate_limit_error"},"type":"error"}` + "\n"},
		{"Messages, server failed", messages.Format, 500, `{"error":{"message":"m","type":"api_error"},"type":"error"}` + "\n"},
		{"Messages, bad request", messages.Format, 400, `{"error":{"message":"m","type":"invalid_request_error"},"type":"error"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			w := httptest.NewRecorder()
			Write(w, tt.api, tt.status, "c", "m")
			if w.Code != tt.status || w.Body.String() != tt.want || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("got %d %q (%s), want %d %q", w.Code, w.Body.String(), w.Header().Get("Content-Type"), tt.status, tt.want)
			}
		})
	}
}
