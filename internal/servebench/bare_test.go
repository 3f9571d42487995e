package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
)

// The bare server answers every request with the recorded reply, byte for
// byte, as a stream: the same bytes serve sends, so that the two are
// measured on the same work.
func TestBareHandlerSendsTheRecordedReply(t *testing.T) {
	req, reply, err := firstInteraction(filepath.Join("..", "..", "cassettes", "parallel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(bareHandler(reply))
	defer srv.Close()
	for range 2 {
		resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(req))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !bytes.Equal(got, reply) {
			t.Fatalf("the bare server sent %d bytes, not the recorded %d:\n%s", len(got), len(reply), got)
		}
	}
}
