package cassette

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayDropsServedBodies: each answer is served whole, then dropped
// from the loaded cassette (an interaction serves one request at most),
// so its memory can be reused once read; the requests stay.
func TestReplayDropsServedBodies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.yaml")
	record(t, path, `{"q":"a"}`, `{"q":"b"}`)
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	answers := []string{loaded.Interactions[0].Response.Body, loaded.Interactions[1].Response.Body}
	c := Replay(path, loaded, Options{})
	got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"q":"b"}`)
	if err != nil || got != answers[1] {
		t.Fatalf("second answer %q, %v; want %q", got, err, answers[1])
	}
	if loaded.Interactions[1].Response.Body != "" || loaded.Interactions[0].Response.Body != answers[0] {
		t.Errorf("after serving the second answer, the bodies are %q and %q; want the first only",
			loaded.Interactions[0].Response.Body, loaded.Interactions[1].Response.Body)
	}
	if got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"q":"a"}`); err != nil || got != answers[0] {
		t.Fatalf("first answer %q, %v; want %q", got, err, answers[0])
	}
	if loaded.Interactions[0].Response.Body != "" || !strings.Contains(loaded.Interactions[0].Request.Body, `"a"`) {
		t.Errorf("after serving both: first body %q, first request %q", loaded.Interactions[0].Response.Body, loaded.Interactions[0].Request.Body)
	}
	if err := c.Stop(); err != nil {
		t.Error(err)
	}
}
