package cassette

import (
	"path/filepath"
	"slices"
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

// TestReplayServesFirstMatchNotFirstSameBytes: a request sent byte for byte
// as a recorded one is served without making any body canonical, but only
// when that interaction is the first unused one on its route; otherwise the
// first unused interaction that matches canonically is served, as always
// (here one whose keys are in another order).
func TestReplayServesFirstMatchNotFirstSameBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.yaml")
	record(t, path, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"c":3}`)
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c := Replay(path, loaded, Options{})
	if _, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"b":2,"a":1}`); err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, false}; !slices.Equal(c.used, want) {
		t.Fatalf("after the reordered body, used = %v, want %v (the first that matches)", c.used, want)
	}
	if _, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"a":1,"b":2}`); err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false}; !slices.Equal(c.used, want) {
		t.Fatalf("after the second body, used = %v, want %v", c.used, want)
	}
	keyed := slices.Clone(c.keyed)
	if _, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"c":3}`); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.keyed, keyed) || c.keyed[2] {
		t.Errorf("the request sent as recorded made bodies canonical: keyed %v, was %v", c.keyed, keyed)
	}
	if err := c.Stop(); err != nil {
		t.Error(err)
	}
}
