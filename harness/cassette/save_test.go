package cassette

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// splitKeyServer streams the key split across two deltas: redaction
// cannot rewrite it, only the scan finds it.
func splitKeyServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		half := len(testKey) / 2
		for _, part := range []string{testKey[:half], testKey[half:]} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", part)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The leak is found in memory, before any file is opened: a directory
// planted at the temporary file's path is never touched (go-vcr's save
// would fail on it first), and nothing is written (a recording
// killed during its save once left the key on disk).
func TestRecordingScansBeforeItWritesAnything(t *testing.T) {
	srv := splitKeyServer(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "split.yaml")
	c, err := Open(path, ModeRecord, nil, Options{Secrets: []string{testKey}})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m"}`))
	resp, err := c.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	temp := filepath.Join(dir, "split.recording.yaml")
	if err := os.Mkdir(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	err = c.Stop()
	want := "cassette " + path + ": secret 1 in interaction 1 response body (JSON text of $.choices[]#0.delta.content); nothing was written: " + ErrSecretInCassette.Error()
	if !errors.Is(err, ErrSecretInCassette) || err.Error() != want {
		t.Fatalf("Stop:\n got %v\nwant %s", err, want)
	}
	if fi, err := os.Stat(temp); err != nil || !fi.IsDir() {
		t.Errorf("the planted directory was touched: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a leaking cassette was written: %v", err)
	}
}

func TestOpenRemovesAStalePartialRecording(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.yaml")
	temp := filepath.Join(dir, "old.recording.yaml")
	if err := os.WriteFile(temp, []byte("---\nversion: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	c, err := Open(path, ModeRecord, nil, Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Discard()
	if _, err := os.Stat(temp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale file is still there: %v", err)
	}
	want := "agentvcr: removed " + temp + ", a partial recording left by a recording that was killed while saving\n"
	if log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	log.Reset()
	if _, err := Open(filepath.Join(dir, "fresh.yaml"), ModeRecord, nil, Options{Log: &log}); err != nil || log.Len() != 0 {
		t.Errorf("no stale file: err %v, log %q", err, log.String())
	}
}

// Discard writes nothing, not even for a moment.
func TestDiscardWritesNothing(t *testing.T) {
	srv := startServer(t)
	dir := t.TempDir()
	c, err := Open(filepath.Join(dir, "gone.yaml"), ModeRecord, nil, Options{Secrets: []string{testKey}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", `{}`); err != nil {
		t.Fatal(err)
	}
	temp := filepath.Join(dir, "gone.recording.yaml")
	if err := os.Mkdir(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.Discard(); err != nil {
		t.Errorf("Discard: %v (it tried to write)", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d entries in the folder, want only the planted one", len(entries))
	}
}
