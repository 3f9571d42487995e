package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Defaults of a live run; the command's flags of the same names change them.
const (
	DefaultHeaderTimeout = 60 * time.Second // -header-timeout
	DefaultIdleTimeout   = 60 * time.Second // -idle-timeout
	DefaultRetries       = 2                // -retries
	// DefaultRetryBackoff is the first wait before a retry whose answer
	// names none (-retry-backoff).
	DefaultRetryBackoff = 500 * time.Millisecond
	// DefaultMaxBodyBytes bounds one response body as the client reads it
	// (after any gzip is inflated): a gateway that never ends a stream, or a
	// small gzip body that inflates to a gigabyte, stops there.
	DefaultMaxBodyBytes = 64 << 20
)

// Retry pacing, as the official OpenAI SDKs pace it (openai/openai-go and
// openai/openai-python: 0.5 s (DefaultRetryBackoff) doubling up to 8 s,
// minus up to a quarter of jitter; a Retry-After-Ms or Retry-After of more
// than 0 and at most 60 s is used as it is).
const (
	retryMax           = 8 * time.Second
	retryAfterHonoured = 60 * time.Second
)

// ErrBodyTooLarge: a response body is larger than LiveTransport.MaxBodyBytes.
var ErrBodyTooLarge = errors.New("response body too large")

// TimeoutError is a gateway that stayed silent longer than a LiveTransport
// timeout allows.
type TimeoutError struct {
	Idle  bool          // false: no response headers in time; true: no stream event in time
	After time.Duration // the timeout
}

func (e *TimeoutError) Error() string {
	if e.Idle {
		return fmt.Sprintf("the stream stalled: no event for %v", e.After)
	}
	return fmt.Sprintf("no response headers from the gateway within %v", e.After)
}

// LiveTransport is the http.RoundTripper of a live run, under any recorder
// (so a recording holds only the final attempt). It promises:
//
//   - HeaderTimeout bounds the time from sending a request to its response
//     headers, connecting included: past it the attempt fails with a
//     *TimeoutError (Idle false).
//   - IdleTimeout bounds the silence inside a body: the timer restarts
//     whenever a read delivers a line end (an SSE line, so an event or a
//     keep-alive comment); past it the read fails with a *TimeoutError (Idle
//     true). It also bounds the wait for the first line after the headers.
//   - A body longer than MaxBodyBytes (0: DefaultMaxBodyBytes) fails the read
//     with ErrBodyTooLarge after MaxBodyBytes bytes.
//   - Up to Retries more attempts, only before a response is handed on: after
//     a connection error, a header timeout, or a status 408, 409, 429 or 5xx
//     (unless the answer says "x-should-retry: false"; "true" retries any
//     status from 400 up). The wait is the answer's Retry-After-Ms, or Retry-After in
//     seconds or as an HTTP date, when it is more than 0 and at most 60 s;
//     otherwise RetryBackoff (0: DefaultRetryBackoff, 0.5 s) doubling per
//     retry up to 8 s (or RetryBackoff when longer), less up to 25 % jitter.
//     Once a 2xx response is returned nothing is retried: no event of a
//     stream is ever read twice. The request body must be replayable
//     (GetBody, as http.NewRequest sets for a bytes.Reader) or it is not
//     retried. A cancelled request context is never retried.
//
// Zero timeouts mean none; the zero value retries nothing.
type LiveTransport struct {
	Next          http.RoundTripper // nil: http.DefaultTransport
	HeaderTimeout time.Duration
	IdleTimeout   time.Duration
	Retries       int
	MaxBodyBytes  int64
	RetryBackoff  time.Duration

	sleep func(ctx context.Context, d time.Duration) error // tests record the waits
}

// RoundTrip sends req, retrying as the type's doc says.
func (t *LiveTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		if attempt > 0 && req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, fmt.Errorf("retrying: %w", err)
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
		resp, err := t.once(req)
		last := attempt >= t.Retries || req.Context().Err() != nil ||
			(req.Body != nil && req.Body != http.NoBody && req.GetBody == nil)
		if last || !retryable(resp, err) {
			if err != nil && attempt > 0 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return resp, err
		}
		wait := retryWait(resp, attempt, t.RetryBackoff, time.Now())
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		sleep := t.sleep
		if sleep == nil {
			sleep = sleepContext
		}
		if err := sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// once is one attempt: the header timeout around the round trip, then the
// body wrapped for the idle timeout and the size limit.
func (t *LiveTransport) once(req *http.Request) (*http.Response, error) {
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	var headerTimer *time.Timer
	if t.HeaderTimeout > 0 {
		headerTimer = time.AfterFunc(t.HeaderTimeout, func() {
			cancel(&TimeoutError{After: t.HeaderTimeout})
		})
	}
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if headerTimer != nil && !headerTimer.Stop() {
		// The timer fired: whatever came back is cut off by the cancel.
		if err == nil {
			resp.Body.Close()
		}
		cancel(nil)
		return nil, context.Cause(ctx)
	}
	if err != nil {
		var te *TimeoutError
		if errors.As(context.Cause(ctx), &te) {
			err = te
		}
		cancel(nil)
		return nil, err
	}
	max := t.MaxBodyBytes
	if max <= 0 {
		max = DefaultMaxBodyBytes
	}
	b := &liveBody{rc: resp.Body, ctx: ctx, cancel: cancel, left: max, max: max, idle: t.IdleTimeout}
	if t.IdleTimeout > 0 {
		b.timer = time.AfterFunc(t.IdleTimeout, func() {
			cancel(&TimeoutError{Idle: true, After: t.IdleTimeout})
		})
	}
	resp.Body = b
	return resp, nil
}

// retryable reports whether an attempt's outcome may be retried.
func retryable(resp *http.Response, err error) bool {
	if err != nil {
		return true // a connection error or a header timeout
	}
	if resp.StatusCode < 400 {
		return false
	}
	switch resp.Header.Get("X-Should-Retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := resp.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// retryWait is how long to wait before retry number attempt+1; backoff is
// the first wait when the answer names none (0: DefaultRetryBackoff).
func retryWait(resp *http.Response, attempt int, backoff time.Duration, now time.Time) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp.Header, now); ok && d > 0 && d <= retryAfterHonoured {
			return d
		}
	}
	if backoff <= 0 {
		backoff = DefaultRetryBackoff
	}
	d := backoff << min(attempt, 10)
	d = min(d, max(retryMax, backoff))
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

// retryAfter reads Retry-After-Ms (milliseconds) or Retry-After (seconds,
// or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(s * float64(time.Second)), true
	}
	if at, err := http.ParseTime(v); err == nil {
		return at.Sub(now), true
	}
	return 0, false
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// liveBody is a response body under the idle timeout and the size limit.
type liveBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer // nil without an idle timeout
	idle   time.Duration
	left   int64 // bytes still allowed
	max    int64
}

func (b *liveBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte past the limit tells a body of exactly max bytes from a longer one.
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 {
			return 0, b.cause(err)
		}
		return 0, fmt.Errorf("%w: more than %d MiB", ErrBodyTooLarge, b.max>>20)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if n > 0 && b.timer != nil && (bytes.IndexByte(p[:n], '\n') >= 0 || bytes.IndexByte(p[:n], '\r') >= 0) {
		b.timer.Reset(b.idle)
	}
	return n, b.cause(err)
}

// cause turns a read error caused by the idle timeout into its *TimeoutError.
func (b *liveBody) cause(err error) error {
	if err != nil && err != io.EOF {
		var te *TimeoutError
		if cause := context.Cause(b.ctx); errors.As(cause, &te) {
			return te
		}
	}
	return err
}

func (b *liveBody) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
