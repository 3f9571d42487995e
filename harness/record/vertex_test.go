package record

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/gateway"
)

// A Gemini client on Vertex AI (its path under /projects/.../publishers/
// google/models/, v1 and v1beta1, its token in "Authorization: Bearer")
// reaches the upstream root on the very path it posted (the /v1 of a Vertex
// path is the API's, not the proxy's), and its token never reaches the
// cassette: a body that quotes it says REDACTED.
func TestRecordingProxyKeepsAVertexTokenOffDisk(t *testing.T) {
	const token = "ya29.test-vertex-access-token-0123456789abcdef"
	gw := gateway.New(token, gateway.Script{Name: "gemini-2.5-pro", Turns: []gateway.ScriptTurn{{Text: "ok"}}})
	gwURL, gwStop := gw.Start()
	defer gwStop()
	upstream := strings.TrimSuffix(gwURL, "/v1") // Vertex AI's root: https://us-central1-aiplatform.googleapis.com
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	p, base, stop := proxyOn(t, upstream, path)
	root := strings.TrimSuffix(base, "/v1")

	body := `{"contents":[{"role":"user","parts":[{"text":"my token is ` + token + `"}]}]}`
	paths := []string{
		"/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		"/v1beta1/projects/my-proj/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
	}
	for _, p := range paths {
		req, err := http.NewRequest(http.MethodPost, root+p, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"text":"ok"`) {
			t.Fatalf("%s through the proxy: %d %s (the gateway checks the forwarded token)", p, resp.StatusCode, answer)
		}
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(token)) {
		t.Errorf("the cassette holds the token:\n%s", data)
	}
	if n := strings.Count(string(data), "my token is REDACTED"); n != 2 {
		t.Errorf("the cassette says \"my token is REDACTED\" %d times, want 2 (one per request):\n%s", n, data)
	}
	for _, p := range paths {
		if want := "url: " + upstream + p + "\n"; !strings.Contains(string(data), want) {
			t.Errorf("the cassette does not record the upstream URL %s:\n%s", strings.TrimSpace(want), data)
		}
	}
}
