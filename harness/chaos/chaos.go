package chaos

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
	"github.com/agentvcr/agentvcr/harness/serve"
	"github.com/agentvcr/agentvcr/wire"
)

// A Chaos breaks the answers a record.Proxy passes to its client: each
// streamed answer through Quirk (a quirk.Stream with Seed+N for the N-th
// answer), and the requests of Fault's turn by Fault, as agentvcr serve
// breaks its replies. Only POSTs on a format's endpoint (wire.ForPath) are
// touched; every other request and every answer that is not a 200 event
// stream passes as it comes.
type Chaos struct {
	// Quirk rewrites every streamed answer; nil: none.
	Quirk *quirk.Quirk
	// Fault breaks the answers of its turn (every answer when Turn is 0).
	Fault serve.Fault
	// Seed is the first answer's seed for Quirk.
	Seed int64
	// MaxHeld bounds the bytes of one answer Quirk may hold
	// (quirk.Stream.LimitHeld): DefaultMaxHeld when 0. An answer that
	// would take it past the bound is cut there, as a broken stream is
	// (record.ErrCutAnswer), and the proxy's log says why.
	MaxHeld int

	answers  atomic.Int64
	refused  sync.Map     // 429: the request bodies (SHA-256) refused once
	mostHeld atomic.Int64 // the most bytes one answer's quirk held
	cut      atomic.Int64 // answers cut at MaxHeld
}

// DefaultMaxHeld is the bound of what a quirk may hold of one answer when
// Chaos.MaxHeld is 0: the most of one answer an agent reads
// (agent.DefaultMaxBodyBytes), where a real answer, calls included, is
// kilobytes to a few megabytes.
const DefaultMaxHeld = agent.DefaultMaxBodyBytes

// MostHeld is the most bytes the quirk held of one answer so far
// (quirk.Stream.Held after each piece of it).
func (c *Chaos) MostHeld() int { return int(c.mostHeld.Load()) }

// Cut is how many answers were cut because the quirk would have held more
// of them than MaxHeld.
func (c *Chaos) Cut() int { return int(c.cut.Load()) }

func (c *Chaos) maxHeld() int {
	if c.MaxHeld > 0 {
		return c.MaxHeld
	}
	return DefaultMaxHeld
}

// Handler puts c in front of p: a 429 or 500 fault answers here, without
// reaching the upstream (and is not recorded); a quirk or a stream fault
// rewrites the answer inside p (p.Rewrite), so what p records is what the
// client got.
func (c *Chaos) Handler(p *record.Proxy) http.Handler {
	p.Rewrite = c.rewrite
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api := wire.ForPath(r.URL.Path)
		f := c.Fault
		if api == nil || r.Method != http.MethodPost || (f.Kind != serve.Fault429 && f.Kind != serve.Fault500) {
			p.ServeHTTP(w, r)
			return
		}
		body, err := serve.ReadBody(w, r, serve.MaxRequestBody, serve.DefaultReadTimeout)
		if err != nil { // the proxy answers the same read error
			r.Body = io.NopCloser(bytes.NewReader(body))
			p.ServeHTTP(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if _, turn := api.TurnOf(r.URL.Path, body); f.AppliesTo(turn) {
			_, seen := c.refused.LoadOrStore(sha256.Sum256(body), true)
			if f.Kind == serve.Fault500 || !seen {
				serve.Refuse(w, api, f)
				return
			}
		}
		p.ServeHTTP(w, r)
	})
}

// rewrite is p.Rewrite: the quirk's Stream, then the stream fault. On a
// framed format's answer (Bedrock's), a quirk of the framing itself reads
// the framed bytes; the carried format's quirks and the fault read the
// events, which framedStream unframes and frames again.
func (c *Chaos) rewrite(r *http.Request, body []byte) record.Rewriter {
	api := wire.ForPath(r.URL.Path)
	if api == nil || r.Method != http.MethodPost {
		return nil
	}
	var rw, framing record.Rewriter
	if c.Quirk != nil {
		s := c.Quirk.Stream(c.Seed + c.answers.Add(1) - 1)
		s.LimitHeld(c.maxHeld())
		rw = &boundedStream{s: s, c: c}
		if api.Framing != nil && c.Quirk.API == api.Name {
			rw, framing = nil, rw
		}
	}
	_, turn := api.TurnOf(r.URL.Path, body)
	if c.Fault.BreaksStream() && c.Fault.AppliesTo(turn) {
		rw = newFaultStream(r.Context(), rw, c.Fault, serve.ErrorEvent(r.URL.Path))
	}
	if api.Framing != nil && rw != nil {
		rw = newFramedStream(api, rw)
	}
	switch {
	case framing == nil:
		return rw
	case rw == nil:
		return framing
	}
	return chain{framing, rw}
}

// boundedStream is a quirk's Stream under Chaos.MaxHeld: it notes the most
// the Stream held, and makes the Stream's ErrHoldLimit cut the answer.
type boundedStream struct {
	s *quirk.Stream
	c *Chaos
}

func (b *boundedStream) Write(p []byte) ([]byte, error) {
	out, err := b.s.Write(p)
	b.noteHeld()
	if errors.Is(err, quirk.ErrHoldLimit) {
		b.c.cut.Add(1)
		err = fmt.Errorf("%w (agentvcr proxy -max-held): %w", err, record.ErrCutAnswer)
	}
	return out, err
}

func (b *boundedStream) Close() ([]byte, error) { return b.s.Close() }

func (b *boundedStream) noteHeld() {
	held := int64(b.s.Held())
	for {
		most := b.c.mostHeld.Load()
		if held <= most || b.c.mostHeld.CompareAndSwap(most, held) {
			return
		}
	}
}
