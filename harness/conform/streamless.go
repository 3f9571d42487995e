package conform

import "fmt"

// An agent that asks for no stream ("stream": false on every request of
// the first case's conversation) cannot meet a stream shape: conform
// answers such requests with the format's non-streamed answer
// (fallback.go), so every case that serves a stream would pass or fail by
// what it never read. The first case says so in one line and is SKIPPED;
// every stream case is SKIPPED with that reason, without running the
// agent; the faults that answer a request with an HTTP error (429, 500)
// do not depend on a stream and still run, their first request allowed to
// ask for none. A first request without a stream followed by streamed
// ones still fails (checkStart).

// streamsNone reports whether the case's agent asked for no stream on each
// request of its conversation, having sent at least one, every one read.
// Probe mode only: a recording is compared as recorded. st.mu is held.
func (st *caseState) streamsNone() bool {
	if st.recorded || len(st.reqs) == 0 {
		return false
	}
	for _, r := range st.reqs {
		if r.err != nil || r.req.Streams {
			return false
		}
	}
	return true
}

// noStreamVerdict is the first case's verdict when its agent asked for no
// stream on its n requests.
func noStreamVerdict(n int) verdict {
	every := "its request"
	if n > 1 {
		every = fmt.Sprintf("each of its %d requests", n)
	}
	return verdict{status: Skipped, details: fmt.Sprintf("the agent asks for no stream (\"stream\": false on %s): conform checks how an agent merges streamed turns, so every case that serves a stream is SKIPPED and only the 429 and 500 faults run; turn streaming on to run them", every)}
}

// needsStream reports whether a case serves a stream: every case but the
// faults that answer the first request with an HTTP error.
func needsStream(c Case) bool {
	return c.Fault != Fault429 && c.Fault != Fault500
}

// notStreamed is the result of a stream case not run because the agent
// asks for no stream, as the first case (first) found.
func notStreamed(c Case, first string) Result {
	return Result{Case: c, Status: Skipped, Details: fmt.Sprintf("not run: the agent asks for no stream (\"stream\": false on every request of %s), and this case serves a stream", first)}
}
