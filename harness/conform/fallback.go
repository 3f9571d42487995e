package conform

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentvcr/agentvcr/harness/serve"
)

// A request of the conversation that asks for no stream ("stream": false:
// Claude Code retries so a stream it could not read or that stalled) gets
// the format's non-streamed answer of the turn it asks for
// (Format.Response), and is judged like any other request. The faults a
// case serves on its first attempt stay: 429 and 500 answer it as they
// answer a stream; a stall or a reset, which break a stream, serve the
// whole answer.

// plainReply is the non-streamed answer to req, when req asks for no
// stream and the case serves the probe's turns; ok is false otherwise (a
// stream, or recorded mode, which serves what was recorded).
func (st *caseState) plainReply(req Request, ans served) (reply serve.Reply, ok bool) {
	if req.Streams || st.conv == nil || st.conv.plain == nil || ans.Status != 0 || ans.Fault == Fault429 || ans.Fault == Fault500 {
		return serve.Reply{}, false
	}
	turn := min(req.assistants(), len(st.conv.plain)-1)
	model := req.Model
	if model == "" {
		model = "conform"
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return serve.Reply{Header: h, Body: st.format.Response(model, probeScript, turn, &st.conv.plain[turn])}, true
}

// fallbacks are the numbers (from 1) of the requests after the first that
// asked for no stream.
func fallbacks(reqs []received) []int {
	var ns []int
	for i, r := range reqs {
		if i > 0 && r.err == nil && !r.req.Streams {
			ns = append(ns, i+1)
		}
	}
	return ns
}

// fellBack turns a passing verdict into a WARNING when the agent asked
// again without a stream: it finished only because conform answered the
// non-streamed retry, so it could not read this stream.
func fellBack(v verdict, o outcome) verdict {
	ns := fallbacks(o.requests)
	if len(ns) == 0 || v.status != Success {
		return v
	}
	return verdict{status: Warning, details: fmt.Sprintf("%s; but it read no stream of this shape: %s asked again with \"stream\": false", v.details, numbered(ns, "request"))}
}

// numbered is "request 2", "requests 2, 4".
func numbered(ns []int, noun string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(ns) == 1 {
		return noun + " " + s[0]
	}
	return noun + "s " + strings.Join(s, ", ")
}

// unstreamed is "; request 2 without a stream" naming the retries that
// asked for no stream, or "": after a fault that is a fair retry.
func unstreamed(o outcome) string {
	if ns := fallbacks(o.requests); len(ns) > 0 {
		return "; " + numbered(ns, "request") + " without a stream"
	}
	return ""
}
