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

// A Gemini client's key, in x-goog-api-key and in ?key=, reaches the
// upstream and never the cassette: the URL says key=REDACTED and a body that
// quotes either key says REDACTED.
func TestRecordingProxyKeepsGeminiKeysOffDisk(t *testing.T) {
	const (
		headerKey = "AIzaSy-test-proxy-header-key-0123456789"
		queryKey  = "AIzaSy-test-proxy-query-key-9876543210"
	)
	gw := gateway.New(headerKey, gateway.Script{Name: "gemini-2.5-flash", Turns: []gateway.ScriptTurn{{Text: "ok"}}})
	gwURL, gwStop := gw.Start()
	defer gwStop()
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	p, base, stop := proxyOn(t, strings.TrimSuffix(gwURL, "/v1"), path)
	base = strings.TrimSuffix(base, "/v1")

	body := `{"contents":[{"role":"user","parts":[{"text":"keys ` + headerKey + ` and ` + queryKey + `"}]}]}`
	req, err := http.NewRequest(http.MethodPost, base+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key="+queryKey, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-goog-api-key", headerKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"text":"ok"`) {
		t.Fatalf("through the proxy: %d %s (the gateway checks the forwarded key)", resp.StatusCode, answer)
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{headerKey, queryKey} {
		if bytes.Contains(data, []byte(key)) {
			t.Errorf("the cassette holds the key %s", key)
		}
	}
	for _, want := range []string{`keys REDACTED and REDACTED`, `:streamGenerateContent?alt=sse&key=REDACTED`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the cassette does not say %s:\n%s", want, data)
		}
	}
}
