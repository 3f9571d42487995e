package serve

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// TestServeFaultStatusInEachFormat: a 429 or 500 fault answers in the
// error shape of the request's format, so an SDK reads it as its API's
// error: Anthropic's {"type":"error","error":{...}} on /v1/messages (it was
// OpenAI's before the server had its own error writer), OpenAI's on chat
// completions and Responses.
func TestServeFaultStatusInEachFormat(t *testing.T) {
	openAI := func(code, message string) string {
		return `{"error":{"code":"` + code + `","message":"` + message + `","type":"invalid_request_error"}}` + "\n"
	}
	anthropic := func(typ, message string) string {
		return `{"error":{"message":"` + message + `","type":"` + typ + `"},"type":"error"}` + "\n"
	}
	const rated, failed = "agentvcr fault: rate limited; retry after the Retry-After header's seconds", "agentvcr fault: the server failed"
	tests := []struct {
		cassette string
		api      *agent.Format
		want429  string
		want500  string
	}{
		{"demo", chat.Format, openAI("rate_limit_exceeded", rated), openAI("server_error", failed)},
		{"responses/demo", responses.Format, openAI("rate_limit_exceeded", rated), openAI("server_error", failed)},
		{"messages/demo", messages.Format, anthropic("rate_limit_error", rated), anthropic("api_error", failed)},
	}
	for _, tt := range tests {
		for _, fault := range []struct {
			spec   string
			status int
			want   string
		}{{"429", http.StatusTooManyRequests, tt.want429}, {"500", http.StatusInternalServerError, tt.want500}} {
			t.Run(tt.api.Name+"/"+fault.spec, func(t *testing.T) {
				f, err := ParseFault(fault.spec)
				if err != nil {
					t.Fatal(err)
				}
				router := &CassetteRouter{Cassettes: servedCassettes(t, tt.cassette), Match: MatchTurn, Fault: f}
				base := serveOn(t, &Server{Route: router.Route})
				url := wire.BaseURL(tt.api, strings.TrimSuffix(base, "/v1")) + tt.api.Path("demo")
				req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(`{"model":"demo","stream":true}`))
				if err != nil {
					t.Fatal(err)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != fault.status || string(body) != fault.want {
					t.Errorf("POST %s under %s: %d %s\nwant %d %s", tt.api.Path("demo"), fault.spec, resp.StatusCode, body, fault.status, fault.want)
				}
			})
		}
	}
}
