package gateway

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/wire/gemini"
)

// postGemini posts body to the gateway's root + path with the key in
// x-goog-api-key and returns the status and body.
func postGemini(t *testing.T, root, path, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, root+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("x-goog-api-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// The gateway speaks Gemini on its path: the model from the path, the key
// from x-goog-api-key, refusals in Google's error shape, the invariant of
// the contents checked, and a clean Gemini stream for the script's turn.
func TestGatewaySpeaksGemini(t *testing.T) {
	gw := New(gatewayKey, testScripts()...)
	base, stop := gw.Start()
	defer stop()
	root := strings.TrimSuffix(base, "/v1")
	user := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	tests := []struct {
		reason, path, key, body string
		status                  int
		want                    string // a substring of the answer
	}{
		{"the script's first turn", gemini.Format.Path("demo") + "?alt=sse", gatewayKey, user, 200,
			`"functionCall":{"id":"fc_`},
		{"a wrong key", gemini.Format.Path("demo"), "nope", user, 401,
			`{"error":{"code":401,"message":"Incorrect API key provided.","status":"UNAUTHENTICATED"}}`},
		{"a model with no script", gemini.Format.Path("gemini-2.5-flash"), gatewayKey, user, 404,
			`"message":"the model \"gemini-2.5-flash\" does not exist","status":"NOT_FOUND"`},
		{"not streamed", gemini.Format.WholePath("demo"), gatewayKey, user, 400,
			`"message":"this gateway only streams: post to /v1beta/models/demo:streamGenerateContent?alt=sse","status":"INVALID_ARGUMENT"`},
		{"a call without its response", gemini.Format.Path("demo"), gatewayKey,
			`{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"glob","args":{}}}]},{"role":"user","parts":[{"text":"go on"}]}]}`, 400,
			`request content 2: functionCall 0 (\"glob\") of content 1 has no functionResponse at part 0`},
	}
	for _, tt := range tests {
		status, body := postGemini(t, root, tt.path, tt.key, tt.body)
		if status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d %s\nwant %d with %s", tt.reason, status, body, tt.status, tt.want)
		}
	}
	if refused := gw.Refused(); len(refused) != 1 || !errors.Is(refused[0], ErrInvariant) {
		t.Errorf("Refused() = %v, want the one broken contents", refused)
	}
}
