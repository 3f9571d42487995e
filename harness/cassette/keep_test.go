package cassette

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReplayReportsUnusedInteractions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "three.yaml")
	record(t, path, `{"n":1}`, `{"n":2}`, `{"n":3}`)
	c := openReplay(t, path, Options{Name: "three"})
	srv := startServer(t) // never reached: replay stays offline
	if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", `{"n":2}`); err != nil {
		t.Fatal(err)
	}
	err := c.Stop()
	if !errors.Is(err, ErrUnusedInteractions) {
		t.Fatalf("Stop: err = %v, want ErrUnusedInteractions", err)
	}
	want := `scenario "three": 2 of 3 recorded interactions never used (number 1, 3): recorded interactions were never used`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("Stop text (-want +got):\n%s", diff)
	}
}

// A recording that is discarded (its run failed) or that holds a secret
// leaves the cassette it would have replaced as it was, and no partial file.
func TestFailedRecordingKeepsTheCassette(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.yaml")
	record(t, path, `{"good":1}`)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t)

	c, err := Open(path, ModeRecord, nil, Options{Secrets: []string{testKey}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", `{"bad":1}`); err != nil {
		t.Fatal(err)
	}
	if err := c.Discard(); err != nil {
		t.Fatalf("Discard: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("Stop after Discard: %v, want nil", err)
	}

	c, err = Open(path, ModeRecord, nil, Options{}) // the key is not configured: only the sk- pattern catches it
	if err != nil {
		t.Fatal(err)
	}
	if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", `{"leak":1}`); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); !errors.Is(err, ErrSecretInCassette) {
		t.Fatalf("Stop: err = %v, want ErrSecretInCassette", err)
	}

	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("a failed recording changed the cassette")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left beside the cassette: %v", entries)
	}
}
