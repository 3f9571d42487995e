package conform

import (
	"fmt"
	"time"
)

// DefaultRetryTimeout is how long a case whose agent keeps sending
// requests may run at most (Options.RetryTimeout): above the 77 s that
// opencode spends retrying a stream that failed midway with backoff, so
// that a -timeout shorter than an agent's own retries does not kill it
// while it still retries.
const DefaultRetryTimeout = 5 * time.Minute

// A caseDeadline is when conform stops a case's agent. A case that is
// still sending requests is not hung: each request of its conversation
// moves the deadline to -timeout after it, never past -retry-timeout after
// the start. A stall case's deadline stays where it starts: it measures
// how long the agent waits on a silent stream. Its fields are guarded by
// the case's mutex.
type caseDeadline struct {
	start   time.Time
	timeout time.Duration // the first deadline after start, and the time each request buys
	bound   time.Duration // the deadline's limit after start; 0 for a fixed deadline
	at      time.Time     // the deadline now
	timer   *time.Timer   // fires at at, or earlier (then it is set again)
	// moved: a request moved the deadline past the first one.
	moved bool
	// expired: the deadline passed and conform stopped the agent there.
	expired bool
}

// startDeadline starts the case's deadline timeout after now, movable up
// to bound after now by the conversation's requests (bound 0: fixed); at
// the deadline the agent is stopped (st.stop, set before).
func (st *caseState) startDeadline(timeout, bound time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	d := &caseDeadline{start: st.start, timeout: timeout, bound: bound, at: st.start.Add(timeout)}
	d.timer = time.AfterFunc(timeout, func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.stopped {
			return // a request decided the case and stopped the agent: no timeout
		}
		if wait := time.Until(d.at); wait > 0 {
			d.timer.Reset(wait) // a request moved it meanwhile
			return
		}
		d.expired = true
		st.stop()
	})
	st.deadline = d
}

// moveDeadline moves the deadline to -timeout after now, a request of the
// conversation having arrived, within the bound. st.mu is held.
func (st *caseState) moveDeadline() {
	d := st.deadline
	if d == nil || d.bound == 0 || d.expired {
		return
	}
	at := time.Now().Add(d.timeout)
	if limit := d.start.Add(d.bound); at.After(limit) {
		at = limit
	}
	if at.After(d.at) {
		d.at, d.moved = at, true
	}
}

// endDeadline stops the deadline's timer once the agent ended, and reports
// whether the deadline stopped it.
func (st *caseState) endDeadline() (expired bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.deadline == nil {
		return false
	}
	st.deadline.timer.Stop()
	return st.deadline.expired
}

// deadlineNote says, for a case that ran past -timeout because its
// requests kept moving the deadline, how many requests came and how long
// it ran; "" for any other case. st.mu is held.
func (st *caseState) deadlineNote(timedOut bool, elapsed time.Duration) string {
	d := st.deadline
	if d == nil || !d.moved || elapsed <= d.timeout || len(st.reqs) == 0 {
		return ""
	}
	last := roundDuration(st.reqs[len(st.reqs)-1].at)
	if timedOut && d.at.Equal(d.start.Add(d.bound)) {
		return fmt.Sprintf("; its %s (the last %s after its start) kept moving the deadline to -timeout %s after each, up to -retry-timeout %s: killed there",
			count(len(st.reqs), "request"), last, d.timeout, d.bound)
	}
	return fmt.Sprintf("; it ran %s, past -timeout %s, as its %s kept coming (the last %s after its start; each moves the deadline to -timeout after it, up to -retry-timeout %s)",
		roundDuration(elapsed), d.timeout, count(len(st.reqs), "request"), last, d.bound)
}
