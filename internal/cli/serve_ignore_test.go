package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// serve -match body -ignore volatile answers a request that differs from
// the recorded one only in its session fields; plain body matching, and
// -ignore of another field, answer it 404.
func TestServeIgnoreVolatile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "parallel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(c.Interactions[0].Request.Body), &body); err != nil {
		t.Fatal(err)
	}
	body["user"] = "run-2"
	body["metadata"] = map[string]any{"user_id": "session_2", "started": "2026-12-03T22:00:00Z"}
	sent, _ := json.Marshal(body)
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want int
	}{
		{nil, http.StatusNotFound},
		{[]string{"-ignore", "messages.0.content"}, http.StatusNotFound},
		{[]string{"-ignore", "volatile"}, http.StatusOK},
		{[]string{"-ignore", "user", "-ignore", "metadata"}, http.StatusOK},
	} {
		base, _ := startServe(t, dir, append([]string{"-cassette", "parallel"}, tt.args...)...)
		resp, err := http.Post(base+"/chat/completions", "application/json", strings.NewReader(string(sent)))
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("serve %v: %d, want %d: %.300s", tt.args, resp.StatusCode, tt.want, answer)
		}
		if tt.want == http.StatusOK && string(answer) != c.Interactions[0].Response.Body {
			t.Errorf("serve %v answered %.200s", tt.args, answer)
		}
	}
}
