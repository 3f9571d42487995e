package gateway

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
)

// SSEFiles is a transport that answers the n-th request with the n-th file,
// raw, as a text/event-stream body: how a scenario feeds the loop a model
// stream pasted from a bug report. A request past the last file fails.
func SSEFiles(files []string) http.RoundTripper {
	return &sseFiles{files: files}
}

type sseFiles struct {
	mu    sync.Mutex
	files []string
	next  int
}

func (s *sseFiles) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	s.mu.Lock()
	n := s.next
	s.next++
	s.mu.Unlock()
	if n >= len(s.files) {
		return nil, fmt.Errorf("request %d: only %d SSE files were given", n+1, len(s.files))
	}
	body, err := os.ReadFile(s.files[n])
	if err != nil {
		return nil, fmt.Errorf("request %d: %w", n+1, err)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"text/event-stream"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}
