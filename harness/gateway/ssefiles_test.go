package gateway

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSSEFilesServesInOrderThenFails(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, body := range []string{"data: one\n\n", "data: two\n\n"} {
		p := filepath.Join(dir, strings.Fields(body)[1]+".sse")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	client := &http.Client{Transport: SSEFiles(files)}
	for _, want := range []string{"data: one\n\n", "data: two\n\n"} {
		resp, err := client.Post("http://sse.invalid/v1/chat/completions", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		if string(got) != want || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("got %q (%s), want %q", got, resp.Header.Get("Content-Type"), want)
		}
	}
	_, err := client.Post("http://sse.invalid/v1/chat/completions", "application/json", strings.NewReader("{}"))
	if err == nil || !strings.Contains(err.Error(), "request 3: only 2 SSE files were given") {
		t.Errorf("third request: %v", err)
	}
}
