package quirk

import (
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// The framing transforms edit the SSE lines of any stream, whatever its
// format: crlf (the chat and the Messages quirk of that name) and comments.

// crlf ends every line in CRLF.
func crlf(body []byte, _ int64) ([]byte, error) {
	return sse.Format(sse.Parse(body), "\r\n"), nil
}

// comments puts ": OPENROUTER PROCESSING" first, 0 to 2 ": keepalive" lines
// (picked by the seed) before every event, and one more after the last.
func comments(body []byte, seed int64) ([]byte, error) {
	rng := newCommentRand(seed)
	events := sse.Parse(body)
	out := []sse.Event{{Comments: []string{" OPENROUTER PROCESSING"}}}
	for _, ev := range events {
		out = append(out, keepalives(ev, rng.Intn(3)))
	}
	out = append(out, sse.Event{Comments: []string{" keepalive"}})
	return sse.Format(out, "\n"), nil
}

// newCommentRand draws how many keepalives go before each event.
func newCommentRand(seed int64) *rechunk.Rand { return rechunk.NewRand(seed) }

// keepalives puts n ": keepalive" lines before the event's own comments.
func keepalives(ev sse.Event, n int) sse.Event {
	var cs []string
	for range n {
		cs = append(cs, " keepalive")
	}
	ev.Comments = append(cs, ev.Comments...)
	return ev
}
