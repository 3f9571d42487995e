package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/agentvcr/agentvcr/agent"
)

// MaxRequestBody is the default bound of one request body (Server.MaxBody).
const MaxRequestBody = 32 << 20

// DefaultReadTimeout is the default time a client has to send one request
// body (Server.ReadTimeout).
const DefaultReadTimeout = 60 * time.Second

// Errors ReadBody's callers test for.
var (
	// ErrBodyTooLarge: the body is over the bound; the server answers 413.
	ErrBodyTooLarge = errors.New("the body is too large")
	// ErrBodyTimeout: the body did not arrive in time; the server answers
	// 408 and closes the connection.
	ErrBodyTimeout = errors.New("the body did not arrive in time")
)

// bodyChunk is the most ReadBody sets aside at a time, before the bytes
// come: a declared Content-Length is a claim, and 40 clients that declare
// 32 MiB and send nothing must not hold 1.3 GiB. A body that keeps coming
// is read in chunks that grow to bodyChunkMax, so what a client holds is
// what it sent and at most one chunk more; the chunks are joined once the
// whole body is there.
const (
	bodyChunk    = 64 << 10
	bodyChunkMax = 1 << 20
)

// ReadBody reads a request body of at most limit bytes (MaxRequestBody
// when limit <= 0) within timeout (none when timeout <= 0). A body over the
// limit, declared or sent, is ErrBodyTooLarge and the connection is closed
// after the answer (http.MaxBytesReader); a body that stops arriving is
// ErrBodyTimeout. Memory grows with the bytes that arrive, never with the
// length a client declares. The read deadline is lifted once the body is
// read, so that a long answer is never cut by it.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration) ([]byte, error) {
	return readBodyWithin(w, r, limit, timeout, nil)
}

// readBodyWithin is ReadBody whose chunks are taken from budget (nil: no
// bound on what the bodies still arriving hold together) and given back
// once the body is read or refused.
func readBodyWithin(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration, budget *bodyBudget) ([]byte, error) {
	if limit <= 0 {
		limit = MaxRequestBody
	}
	if r.ContentLength > limit {
		return nil, bodyTooLarge(limit)
	}
	if timeout > 0 {
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(timeout)) == nil {
			defer rc.SetReadDeadline(time.Time{})
		}
	}
	buf, err := readAll(http.MaxBytesReader(w, r.Body, limit), int(min(max(r.ContentLength, 0), bodyChunk)), budget)
	if err == nil {
		return buf, nil
	}
	var over *http.MaxBytesError // escapes: declared only on the way to an error
	switch {
	case errors.As(err, &over):
		return nil, bodyTooLarge(limit)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%w: no whole body within %s", ErrBodyTimeout, timeout)
	}
	return nil, err
}

// readAll reads r to its end. The first chunk has room for size bytes and
// one more read (the one that finds the end), so that a small body of its
// declared length is read into the one buffer set aside for it, and
// returned as it is; a longer one goes on in chunks twice as large, up to
// bodyChunkMax, each taken from budget before it is read into, and the
// chunks are joined at the end. No chunk is copied while the body arrives
// (a buffer that doubled copied a 32 MiB body about twice over, and held
// up to twice what was sent).
func readAll(r io.Reader, size int, budget *bodyBudget) ([]byte, error) {
	var full [][]byte // the chunks filled before the one being read into
	taken := 0
	defer func() { budget.give(taken) }()
	next := size + 512
	total := 0
	for {
		if !budget.take(next) {
			return nil, budget.full()
		}
		taken += next
		chunk := make([]byte, 0, next)
		for len(chunk) < cap(chunk) {
			n, err := r.Read(chunk[len(chunk):cap(chunk)])
			chunk = chunk[:len(chunk)+n]
			if err == nil {
				continue
			}
			if full != nil { // a body of one chunk is that chunk, with no list to hold it
				chunk = join(append(full, chunk), total+len(chunk))
			}
			if err == io.EOF {
				return chunk, nil
			}
			return chunk, err
		}
		full = append(full, chunk)
		total += len(chunk)
		next = min(max(2*next, bodyChunk), bodyChunkMax)
	}
}

// join is the chunks as one slice of n bytes.
func join(chunks [][]byte, n int) []byte {
	out := make([]byte, 0, n)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

func bodyTooLarge(limit int64) error {
	return fmt.Errorf("%w: over %d bytes", ErrBodyTooLarge, limit)
}

// refusedKey names a request a 429 fault refused once: its case and body.
type refusedKey struct {
	name string
	sum  bodySum
}

// readBody reads a request body within the server's bounds, or answers
// the error in api's shape: 413 over MaxBody, 408 when the client went
// silent, 400 otherwise.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, api *agent.Format) ([]byte, bool) {
	timeout := s.ReadTimeout
	if timeout == 0 {
		timeout = DefaultReadTimeout
	}
	body, err := readBodyWithin(w, r, s.MaxBody, timeout, s.bodies())
	switch {
	case err == nil:
		return body, true
	case errors.Is(err, ErrBodiesFull):
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", "1")
		s.fail(w, api, http.StatusServiceUnavailable, "overloaded", "cannot read the request body: "+err.Error()+" (agentvcr serve -max-body-total)")
	case errors.Is(err, ErrBodyTooLarge):
		s.fail(w, api, http.StatusRequestEntityTooLarge, "request_too_large", "cannot read the request body: "+err.Error()+" (agentvcr serve -max-body)")
	case errors.Is(err, ErrBodyTimeout):
		w.Header().Set("Connection", "close")
		s.fail(w, api, http.StatusRequestTimeout, "request_timeout", "cannot read the request body: "+err.Error()+" (agentvcr serve -read-timeout)")
	default:
		s.fail(w, api, http.StatusBadRequest, "invalid_request_error", "cannot read the request body: "+err.Error())
	}
	return nil, false
}
