package cli

import (
	"net/http"
	"testing"
	"time"

	"github.com/agentvcr/agentvcr/agent"
)

// -retry-backoff reaches the live transport; $AGENTVCR_RETRY_BACKOFF is its
// default, the flag wins over it, and a value that is no duration above 0
// is a usage error that names the variable.
func TestRetryBackoff(t *testing.T) {
	tests := []struct {
		reason string
		value  string // of AGENTVCR_RETRY_BACKOFF
		args   []string
		want   time.Duration
		code   int
		stderr string
	}{
		{"the default", "", nil, agent.DefaultRetryBackoff, 1, ""},
		{"from the variable", "7ms", nil, 7 * time.Millisecond, 1, ""},
		{"the flag wins", "7ms", []string{"-retry-backoff", "9ms"}, 9 * time.Millisecond, 1, ""},
		{"not a duration", "soon", nil, 0, 2, "agentvcr run: AGENTVCR_RETRY_BACKOFF=\"soon\": want a duration above 0, such as 500ms\n"},
		{"zero", "0s", nil, 0, 2, "agentvcr run: AGENTVCR_RETRY_BACKOFF=\"0s\": want a duration above 0, such as 500ms\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var got time.Duration
			env := Env{Dir: t.TempDir(), Getenv: Vars(map[string]string{"OPENAI_API_KEY": "k", retryBackoffEnv: tt.value})}
			env.WrapTransport = func(next http.RoundTripper) http.RoundTripper {
				if lt, ok := next.(*agent.LiveTransport); ok {
					got = lt.RetryBackoff
				}
				return refuse{}
			}
			args := append([]string{"run", "-base-url", "http://127.0.0.1:1/v1", "-model", "m"}, tt.args...)
			code, _, stderr := Capture(env, args...)
			if code != tt.code || got != tt.want || (tt.stderr != "" && stderr != tt.stderr) {
				t.Errorf("exit %d, backoff %v, stderr %q\nwant exit %d, backoff %v, stderr %q", code, got, stderr, tt.code, tt.want, tt.stderr)
			}
		})
	}
}

// refuse answers every request 401 at once: no request leaves the test.
type refuse struct{}

func (refuse) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusUnauthorized, Status: "401 Unauthorized", Header: http.Header{}, Body: http.NoBody}, nil
}
