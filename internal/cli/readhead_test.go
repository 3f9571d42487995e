package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// chunksThenErr reads its chunks one Read each, the last one together with
// err, as an io.Reader may, and says io.EOF after that: the error is
// reported once, so a caller that reads again loses it.
type chunksThenErr struct {
	chunks []string
	err    error
	told   bool
}

func (r *chunksThenErr) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, r.tell()
	}
	n := copy(p, r.chunks[0])
	if r.chunks[0] = r.chunks[0][n:]; r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	if len(r.chunks) == 0 {
		return n, r.tell()
	}
	return n, nil
}

func (r *chunksThenErr) tell() error {
	if r.told && r.err != nil {
		return io.EOF
	}
	r.told = true
	return r.err
}

// TestReadHead: the reader readHead returns gives the whole stream, the
// head then the rest, and then the stream's own error, whether the stream
// is shorter or longer than the head, read a byte at a time, or fails with
// its last bytes; a stream that keeps returning nothing is io.ErrNoProgress.
func TestReadHead(t *testing.T) {
	failed := errors.New("connection reset")
	long := strings.Repeat("data: x\n\n", 20)
	tests := []struct {
		name    string
		r       io.Reader
		head    string
		all     string
		wantErr error
	}{
		{"shorter than the head", strings.NewReader("data: 1\n\n"), "data: 1\n\n", "data: 1\n\n", nil},
		{"longer than the head", strings.NewReader(long), long[:16], long, nil},
		{"a byte at a time", iotest.OneByteReader(strings.NewReader(long)), long[:16], long, nil},
		{"failing inside the head", &chunksThenErr{chunks: []string{"data: 1", "\n"}, err: failed}, "data: 1\n", "data: 1\n", failed},
		{"failing with the head's last bytes", &chunksThenErr{chunks: []string{long[:10], long[10:16]}, err: failed}, long[:16], long[:16], failed},
		{"failing after the head", &chunksThenErr{chunks: []string{long[:16], long[16:30]}, err: failed}, long[:16], long[:30], failed},
		{"ending with the head's last bytes", &chunksThenErr{chunks: []string{long[:16]}, err: io.EOF}, long[:16], long[:16], nil},
		{"no progress", &chunksThenErr{chunks: []string{"", ""}, err: nil}, "", "", io.ErrNoProgress},
	}
	for _, tt := range tests {
		head, r := readHead(tt.r, 16)
		all, err := readAllBounded(r)
		if string(head) != tt.head || string(all) != tt.all || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: head %q, all %q, %v; want %q, %q, %v", tt.name, head, all, err, tt.head, tt.all, tt.wantErr)
		}
		if !bytes.HasPrefix(all, head) {
			t.Errorf("%s: the stream does not begin with the head", tt.name)
		}
	}
}

// readAllBounded is io.ReadAll that gives up with io.ErrNoProgress after
// 1000 reads in a row that return nothing, so that a wrong reader fails the
// test instead of hanging it.
func readAllBounded(r io.Reader) ([]byte, error) {
	var all []byte
	buf := make([]byte, 7)
	for empty := 0; empty < 1000; {
		n, err := r.Read(buf)
		all = append(all, buf[:n]...)
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
		if n == 0 {
			empty++
		} else {
			empty = 0
		}
	}
	return all, io.ErrNoProgress
}
