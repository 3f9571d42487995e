package record

import (
	"bytes"
	"context"
	"errors"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"io"
	"net/http"
	"time"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// ErrCutAnswer, wrapped in an error a Rewriter returns, makes the proxy cut
// the answer the way a broken stream is cut: it logs the error, sends what
// came with it, and closes the connection without ending the body, so the
// client reads an unexpected EOF. The exchange is not recorded.
var ErrCutAnswer = errors.New("the answer is cut off, as a broken stream is")

// isStream reports a streamed answer: an event stream, or an AWS event
// stream (Bedrock's), whose messages a Rewriter reads framed.
func isStream(contentType string) bool {
	return IsEventStream(contentType) || eventstream.IsMediaType(contentType)
}

// IsEventStream reports whether a Content-Type names an event stream:
// text/event-stream in any case, with any parameters (sse.IsEventStream,
// the one rule serve, quirk and conform read answers by too).
func IsEventStream(contentType string) bool { return sse.IsEventStream(contentType) }

// rewriterOf is the Rewriter of an answer (nil: it passes as it comes)
// and the codec of its Content-Encoding (nil: none). An answer Rewrite
// would change whose encoding cannot be decoded passes as it came: the log
// says so, naming what, and Unrewritten counts it.
func (p *Proxy) rewriterOf(r *http.Request, body []byte, resp *http.Response, what string) (Rewriter, *answerCodec) {
	if p.Rewrite == nil || resp.StatusCode != http.StatusOK || !isStream(resp.Header.Get("Content-Type")) {
		return nil, nil
	}
	rw := p.Rewrite(r, body)
	if rw == nil {
		return nil, nil
	}
	codec, err := codecOf(resp.Header.Get("Content-Encoding"))
	if err != nil {
		p.unrewritten.Add(1)
		p.logf("agentvcr: %s: %v: the answer passes as it came, not broken", what, err)
		return nil, nil
	}
	return rw, codec
}

// tee streams the upstream's answer to the client as it arrives, through
// rw when it is not nil (decoded and encoded again by codec when it is not
// nil), and returns what is recorded (what the client got) and when each
// piece of it went out (since sentAt): false when the answer broke off,
// its client (clientGone) went before it ended (more than drainBytes, or
// drainGrace, before), or it was over
// agent.DefaultMaxBodyBytes (passed on, not recorded). what names the
// exchange in log lines. An error of rw that wraps ErrCutAnswer cuts the
// answer there: tee panics with http.ErrAbortHandler.
func (p *Proxy) tee(w http.ResponseWriter, clientGone context.Context, resp *http.Response, rw Rewriter, codec *answerCodec,
	sentAt time.Time, what string) ([]byte, []arrival, bool) {
	flusher, _ := w.(http.Flusher)
	var got bytes.Buffer // what is recorded: at most agent.DefaultMaxBodyBytes
	tooLong := false
	logged := false
	var reads []arrival
	send := func(b []byte) {
		if len(b) == 0 {
			return
		}
		if got.Len()+len(b) > agent.DefaultMaxBodyBytes {
			tooLong = true
		} else {
			got.Write(b)
			reads = append(reads, arrival{end: got.Len(), at: time.Since(sentAt)})
		}
		w.Write(b) // a client that went away cancels the upstream request: the next read fails
		if flusher != nil {
			flusher.Flush()
		}
	}
	var src io.Reader = resp.Body
	var enc *answerEncoder
	if codec != nil {
		var err error
		if src, enc, err = codec.open(resp.Body); err != nil {
			p.logf("agentvcr record: %s: the upstream answer broke off: %v (not recorded)", what, err)
			return nil, nil, false
		}
	}
	pass := func(b []byte, err error) {
		cut := errors.Is(err, ErrCutAnswer)
		if err != nil && (!logged || cut) {
			logged = true
			p.logf("agentvcr: %s: %v", what, err)
		}
		if enc != nil {
			b = enc.encode(b, cut)
		}
		send(b)
		if cut {
			// The headers go out first, so that the client reads a 200
			// whose body breaks off, not a connection closed before any
			// answer; aborting the handler then makes net/http close the
			// connection without ending the chunked body.
			if flusher != nil {
				flusher.Flush()
			}
			panic(http.ErrAbortHandler)
		}
	}
	buf := make([]byte, 32<<10)
	afterGone := 0 // bytes read since the client went
	for {
		n, rerr := src.Read(buf)
		if clientGone.Err() != nil {
			if afterGone += n; afterGone > drainBytes {
				p.logf("agentvcr record: %s: the client went away before the answer ended: the upstream request is cancelled (not recorded)", what)
				return nil, nil, false
			}
		}
		if n > 0 {
			if rw != nil {
				pass(rw.Write(buf[:n]))
			} else {
				pass(buf[:n], nil)
			}
		}
		if errors.Is(rerr, io.EOF) {
			if rw != nil {
				pass(rw.Close())
				if e, ok := rw.(ender); ok {
					pass(nil, e.End())
				}
			}
			if enc != nil {
				send(enc.close())
			}
			break
		}
		if rerr != nil && clientGone.Err() != nil {
			p.logf("agentvcr record: %s: the client went away before the answer ended: the upstream request is cancelled (not recorded)", what)
			return nil, nil, false
		}
		if rerr != nil {
			p.logf("agentvcr record: %s: the upstream answer broke off: %v (not recorded)", what, rerr)
			return nil, nil, false
		}
	}
	if tooLong {
		p.logf("agentvcr record: %s: the answer is over %d bytes (passed on, not recorded)", what, agent.DefaultMaxBodyBytes)
		return nil, nil, false
	}
	return got.Bytes(), reads, true
}
