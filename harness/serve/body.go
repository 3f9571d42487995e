package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
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

// bodyGrowth is what ReadBody sets aside before a body arrives: a declared
// Content-Length is a claim, and 40 clients that declare 32 MiB and send
// nothing must not hold 1.3 GiB.
const bodyGrowth = 64 << 10

// ReadBody reads a request body of at most limit bytes (MaxRequestBody
// when limit <= 0) within timeout (none when timeout <= 0). A body over the
// limit, declared or sent, is ErrBodyTooLarge and the connection is closed
// after the answer (http.MaxBytesReader); a body that stops arriving is
// ErrBodyTimeout. Memory grows with the bytes that arrive, never with the
// length a client declares. The read deadline is lifted once the body is
// read, so that a long answer is never cut by it.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64, timeout time.Duration) ([]byte, error) {
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
	buf, err := readAll(http.MaxBytesReader(w, r.Body, limit), int(min(max(r.ContentLength, 0), bodyGrowth)), int(limit)+1)
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

// readAll reads r to its end into a buffer that starts with room for
// size bytes and one more read (the one that finds the end), so that a body
// of its declared length is read into the one buffer set aside for it.
// A longer body doubles the buffer (append grows a large slice by a
// quarter, which copied a 32 MiB body about four times over), never past
// the most bytes r gives and one more read.
func readAll(r io.Reader, size, most int) ([]byte, error) {
	buf := make([]byte, 0, size+512)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(512, min(cap(buf), most-len(buf))))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		}
	}
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
	body, err := ReadBody(w, r, s.MaxBody, timeout)
	switch {
	case err == nil:
		return body, true
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
