package serve

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

// TestReadBodyAllocs pins what reading a request body costs per request
// (without a read timeout, which adds the response controller): a body of
// its declared length is read into one buffer set aside for it (no second,
// larger copy when the last read finds the end), and no error is built for
// a body within the limit.
func TestReadBodyAllocs(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 2400)
	src := readCloser{bytes.NewReader(body)}
	r := httptest.NewRequest("POST", "/v1/chat/completions", nil)
	w := httptest.NewRecorder()
	var bytesRead int
	allocs := testing.AllocsPerRun(100, func() {
		src.Reset(body)
		r.Body, r.ContentLength = src, int64(len(body))
		got, err := ReadBody(w, r, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		bytesRead = len(got)
	})
	if bytesRead != len(body) {
		t.Fatalf("read %d bytes, want %d", bytesRead, len(body))
	}
	if allocs != 2 {
		t.Errorf("ReadBody allocates %v times per request, want 2 (the reader limiting the body and the buffer)", allocs)
	}
}

// readCloser is a reusable request body.
type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }
