package sse

import "github.com/agentvcr/agentvcr/agent"

// Framed is body, a stream of f in its logical form (SSE events), as it
// travels: every event framed (agent.Format.FrameEvent), the events that
// are nothing in the framing (comments) left out. A format of SSE, or a
// body already framed, gives body as it is.
func Framed(f *agent.Format, body []byte) []byte {
	if f.Framing == nil || f.Framing.IsFramed(body) {
		return body
	}
	var out []byte
	for _, ev := range SplitEvents(body) {
		out = append(out, f.FrameEvent(ev)...)
	}
	return out
}
