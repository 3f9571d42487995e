package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A Status is a case's verdict, in the words of MCP's conformance checks.
type Status string

// Statuses.
const (
	Success Status = "SUCCESS"
	Failure Status = "FAILURE"
	Warning Status = "WARNING"
	Skipped Status = "SKIPPED"
)

// A received request: its body read in the case's format, when it reads.
type received struct {
	req Request
	err error         // the body did not read
	at  time.Duration // since the agent started
}

// outcome is what conform saw of one case's run.
type outcome struct {
	requests []received
	exitCode int
	startErr error // the command did not start
	timedOut bool  // killed at -timeout
	stdout   []byte
	stderr   []byte
	timeout  time.Duration
	elapsed  time.Duration // from the agent's start to its end
	sides    int           // side requests, answered apart (side.go)
	// retryAfter is fault_429's Retry-After.
	retryAfter time.Duration
	// clean is what the agent did on the clean stream (reference.go); nil
	// for the clean case itself, or when it did not answer the tool turn.
	clean *cleanRun
	// unstreamed: the agent asks for no stream at all (streamless.go).
	unstreamed bool
	// turns is how many turns the probe's conversation has (conclusion.go).
	turns int
	// text is the tool turn's text as merged (conversation.text).
	text string
}

// A verdict is a case's status with one line of details and, for a failure
// found in a request, the first difference as a diff (-want +got).
type verdict struct {
	status  Status
	details string
	diff    string
	// vacuous: SKIPPED because the case's shape could not reach the agent
	// (vacuous.go).
	vacuous bool
}

func fail(format string, args ...any) verdict {
	return verdict{status: Failure, details: fmt.Sprintf(format, args...)}
}

// sideNote is " with tools (N side requests without them, answered
// apart)", or "" when there were none.
func sideNote(sides int) string {
	if sides == 0 {
		return ""
	}
	return fmt.Sprintf(" offering the conversation's tools (only %s, answered apart)", count(sides, "side request"))
}

// checkStart fails a case whose agent did not start, sent nothing, or sent
// something conform cannot read. ok is true when the checks can go on.
func checkStart(o outcome) (verdict, bool) {
	switch {
	case o.startErr != nil:
		return fail("the command did not start: %v", o.startErr), false
	case len(o.requests) == 0 && o.timedOut:
		return fail("the agent sent no request%s and was still running after -timeout %s: killed%s", sideNote(o.sides), o.timeout, stderrExcerpt(o.stderr)), false
	case len(o.requests) == 0:
		return fail("the agent exited with code %d without sending a request%s to the case's URL%s", o.exitCode, sideNote(o.sides), stderrExcerpt(o.stderr)), false
	}
	for i, r := range o.requests {
		switch {
		case r.err != nil:
			return fail("request %d: %v", i+1, r.err), false
		case i == 0 && !r.req.Streams && !o.unstreamed: // a later one is a fallback (fallback.go)
			return fail("request %d does not ask for a stream (\"stream\": true): conform checks how an agent merges streamed turns; turn streaming on", i+1), false
		}
	}
	return verdict{}, true
}

// checkProbe judges a probe-mode case from what the agent sent and how it
// ended; want is the tool turn's merged calls.
func checkProbe(c Case, want []Call, o outcome) verdict {
	if v, ok := checkStart(o); !ok {
		return v
	}
	if v, ok := checkMarkers(c, o); !ok {
		return v
	}
	switch c.Expect {
	case ExpectBroken:
		return checkBroken(c, want, o)
	case ExpectFault:
		return checkFault(c, want, o)
	case ExpectFirstOrBroken, ExpectSameOrBroken:
		if !sentTurn(o) {
			return checkBroken(c, want, o)
		}
	}
	if v, ok := checkFollowUps(c, want, o); !ok {
		return v
	}
	if v, ok := checkResults(o); !ok {
		return v
	}
	var echoed verdict
	if c.Expect == ExpectEcho {
		var ok bool
		if echoed, ok = checkEcho(c, o); !ok {
			return echoed
		}
	}
	switch {
	case o.timedOut:
		return fail("the agent got the conclusion but was still running after -timeout %s: killed", o.timeout)
	case o.exitCode != 0:
		return fail("the agent exited with code %d instead of finishing%s", o.exitCode, stderrExcerpt(o.stderr))
	}
	if v, ok := checkConclusionTaken(o); !ok {
		return v
	}
	if v, ok := checkPrinted(o.stdout); !ok {
		return v
	}
	var printed verdict            // a WARNING when the output is not the clean run's
	if c.Expect != ExpectBadArgs { // a bad call's failure is printed, as it should be
		var ok bool
		if printed, ok = checkSameAnswer(o); !ok {
			return printed
		}
	}
	var v verdict
	switch c.Expect {
	case ExpectEcho:
		v = verdict{status: Success, details: fmt.Sprintf("%d calls re-sent and answered, %s; exit 0", len(want), echoed.details)}
	case ExpectFirstOrBroken:
		v = verdict{status: Success, details: fmt.Sprintf("went on with the first response's turn, leaving the second one out: %d calls re-sent and answered; exit 0", len(want))}
	case ExpectSameOrBroken:
		v = verdict{status: Success, details: fmt.Sprintf("read both events of the frame: %d calls re-sent and answered; exit 0", len(want))}
	default:
		v = verdict{status: Success, details: fmt.Sprintf("%d calls re-sent and answered; exit 0", len(want))}
	}
	if c.Expect == ExpectBadArgs {
		if refused, ok := badArgsRefused(want, o); ok {
			v = refused
		}
	}
	if printed.status == Warning {
		v = verdict{status: Warning, details: v.details + "; but " + printed.details, diff: printed.diff}
	}
	return fellBack(v, o)
}

// sentTurn reports whether a request carries an assistant message: the
// agent went on with a turn rather than retrying or giving up.
func sentTurn(o outcome) bool {
	for _, r := range o.requests {
		if firstAssistant(r.req) >= 0 {
			return true
		}
	}
	return false
}

// checkFollowUps checks every request that carries the tool turn: its first
// assistant message re-sends the merged calls, each answered by exactly one
// tool message before any other message, with the same ids in every later
// request. It fails when no request carries the tool turn.
func checkFollowUps(c Case, want []Call, o outcome) (verdict, bool) {
	var ids []string
	seen := false
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		if v, ok := checkAnswered(c, want, r.req, a, n+1); !ok {
			return v, false
		}
		if v, ok := checkText(r.req, a, n+1, o.text); !ok && c.Expect != ExpectFault {
			return v, false
		}
		got := callIDs(r.req.Messages[a].Calls)
		if seen && !slicesEqual(ids, got) {
			return verdict{status: Failure, details: fmt.Sprintf("request %d re-sends the calls under other ids", n+1),
				diff: cmp.Diff(ids, got)}, false
		}
		ids, seen = got, true
	}
	if !seen {
		if o.timedOut {
			return fail("the agent never sent the tool results and was still running after -timeout %s: killed (%s)", o.timeout, count(len(o.requests), "request")), false
		}
		return fail("the agent never sent the tool results: %s, exit %d%s", count(len(o.requests), "request"), o.exitCode, stderrExcerpt(o.stderr)), false
	}
	return verdict{}, true
}

func firstAssistant(r Request) int {
	for i, m := range r.Messages {
		if m.Role == "assistant" {
			return i
		}
	}
	return -1
}

func callIDs(calls []Call) []string {
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = c.ID
	}
	return ids
}

func slicesEqual(a, b []string) bool {
	return len(a) == len(b) && strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// callView is a call as the checks compare it: arguments as canonical JSON
// (as sent when they are not JSON), the id only when the stream carried it.
type callView struct {
	ID        string `json:",omitempty"`
	Name      string
	Arguments string
}

func views(calls []Call, withIDs bool, skipArgs int) []callView {
	out := make([]callView, len(calls))
	for i, c := range calls {
		out[i] = callView{Name: c.Name, Arguments: canonicalArgs(c.Arguments)}
		if withIDs {
			out[i].ID = c.ID
		}
		if i == skipArgs {
			out[i].Arguments = "(not compared)"
		}
	}
	return out
}

// canonicalArgs is arguments as compact JSON with sorted keys, or the text as
// sent when it is not JSON.
func canonicalArgs(s string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if dec.Decode(&v) != nil || dec.More() {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // a decoded value always encodes; maps are written with sorted keys
	return strings.TrimSuffix(b.String(), "\n")
}

// checkAnswered checks the assistant message at a of request n.
func checkAnswered(c Case, want []Call, r Request, a, n int) (verdict, bool) {
	got := r.Messages[a].Calls
	skip := -1
	if c.Expect == ExpectBadArgs {
		skip, got = 0, asBadCall(want, r, a)
	}
	withIDs := !c.DropsIDs
	want, skip = inSentOrder(want, got, withIDs, skip)
	if d := cmp.Diff(views(want, withIDs, skip), views(got, withIDs, skip)); d != "" {
		return verdict{status: Failure, details: fmt.Sprintf("request %d: the assistant message does not re-send the merged calls", n), diff: d}, false
	}
	if r.Messages[a].TextAfterCalls {
		return fail("request %d: the assistant message has text after its tool_use blocks; the Messages API answers 400: send the text first", n), false
	}
	pending := map[string]bool{}
	for i, call := range got {
		if call.ID == "" {
			return fail("request %d: call %d (%s) has an empty id", n, i+1, call.Name), false
		}
		if _, dup := pending[call.ID]; dup {
			return fail("request %d: two calls share the id %q", n, call.ID), false
		}
		pending[call.ID] = false
	}
	j := a + 1
	for ; j < len(r.Messages) && r.Messages[j].Role == "tool"; j++ {
		id := r.Messages[j].CallID
		answered, ok := pending[id]
		switch {
		case !ok:
			return fail("request %d: message %d answers %q, which is no call of the assistant message", n, j+1, id), false
		case answered:
			return fail("request %d: call %q is answered twice (message %d)", n, id, j+1), false
		}
		pending[id] = true
	}
	for _, call := range got {
		if !pending[call.ID] {
			next := "the end of the messages"
			if j < len(r.Messages) {
				next = fmt.Sprintf("message %d (%s)", j+1, r.Messages[j].Role)
			}
			return fail("request %d: call %q (%s) has no tool message before %s", n, call.ID, call.Name, next), false
		}
	}
	return verdict{}, true
}

// checkBroken: no request may carry an assistant or tool message the first
// request did not (a retry of the same request is fine), and the agent must
// not exit 0; but salvage and resuming are WARNINGs (recovery.go), and the
// whole turn read from a non-streamed retry may be sent on (fallback.go).
func checkBroken(c Case, want []Call, o outcome) verdict {
	if v, found := recovery(c, want, o); found {
		if v.status == Failure {
			return v
		}
		return recovered(v, o)
	}
	if ns := fallbacks(o.requests); len(ns) > 0 {
		return checkFallbackFinished(c, want, o, ns)
	}
	base := o.requests[0].req.Messages
	for n, r := range o.requests[1:] {
		if extra := sentOn(base, r.req.Messages); extra != "" {
			return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn: %s", n+2, extra),
				diff: cmp.Diff(messageViews(base), messageViews(r.req.Messages))}
		}
	}
	switch {
	case o.timedOut:
		return fail("the agent was still running after -timeout %s: killed (%s)", o.timeout, count(len(o.requests), "request"))
	case o.exitCode == 0:
		return fail("the agent exited 0 after a broken stream, as if the turn were complete (%s)", count(len(o.requests), "request"))
	}
	return verdict{status: Success, details: fmt.Sprintf("gave up with exit %d after %s%s", o.exitCode, count(len(o.requests), "attempt"), stderrExcerpt(o.stderr))}
}

// checkFallbackFinished judges a broken case whose agent asked again
// without a stream (requests ns): it may go on with the whole turn conform
// answered, and must then finish.
func checkFallbackFinished(c Case, want []Call, o outcome, ns []int) verdict {
	if v, ok := checkFollowUps(c, want, o); !ok {
		return v
	}
	switch {
	case o.timedOut:
		return fail("the agent got the conclusion but was still running after -timeout %s: killed", o.timeout)
	case o.exitCode != 0:
		return fail("the agent sent the tool results but exited with code %d%s", o.exitCode, stderrExcerpt(o.stderr))
	}
	return verdict{status: Success, details: fmt.Sprintf("gave up on the broken stream, asked again with \"stream\": false (%s), read the whole turn and finished; exit 0", numbered(ns, "request"))}
}

// sentOn names the first assistant or tool message of msgs beyond those of
// base, or "".
func sentOn(base, msgs []Message) string {
	count := func(ms []Message, role string) int {
		n := 0
		for _, m := range ms {
			if m.Role == role {
				n++
			}
		}
		return n
	}
	for _, role := range []string{"assistant", "tool"} {
		if count(msgs, role) > count(base, role) {
			return "it carries a new " + role + " message"
		}
	}
	return ""
}

type messageView struct {
	Role   string
	Text   string     `json:",omitempty"`
	Calls  []callView `json:",omitempty"`
	CallID string     `json:",omitempty"`
}

func messageViews(ms []Message) []messageView {
	out := make([]messageView, len(ms))
	for i, m := range ms {
		out[i] = messageView{Role: m.Role, Text: m.Text, CallID: m.CallID}
		if len(m.Calls) > 0 {
			out[i].Calls = views(m.Calls, true, -1)
		}
	}
	return out
}

// checkFault: the first attempt met a fault, later ones the clean turn. The
// agent may give up (exit non-zero) or retry and finish; it must not send on
// what the fault cut, exit 0 without finishing, or hang.
func checkFault(c Case, want []Call, o outcome) verdict {
	if v, found := recovery(c, want, o); found {
		if v.status == Failure {
			return v
		}
		return recovered(v, o)
	}
	followUp := false
	for _, r := range o.requests {
		if firstAssistant(r.req) >= 0 {
			followUp = true
		}
	}
	if followUp {
		if v, ok := checkFollowUps(c, want, o); !ok {
			return v
		}
	}
	retried := len(o.requests) > 1 && firstAssistant(o.requests[1].req) < 0
	switch {
	case o.timedOut && c.Fault == FaultStall:
		return fail("the agent did not give up on a stalled stream within -stall-timeout %s: killed", o.timeout)
	case o.timedOut:
		return fail("the agent was still running after -timeout %s: killed (%s)", o.timeout, count(len(o.requests), "request"))
	case o.exitCode == 0 && !followUp:
		return fail("the agent exited 0 after the %s fault without finishing the conversation (%s)", c.Fault, count(len(o.requests), "request"))
	case o.exitCode != 0 && followUp:
		return fail("the agent sent the tool results but exited with code %d%s", o.exitCode, stderrExcerpt(o.stderr))
	case c.Fault == Fault429 && retried && o.requests[1].at-o.requests[0].at < o.retryAfter:
		return verdict{status: Warning, details: fmt.Sprintf("retried %s after the 429, before its Retry-After: %s", (o.requests[1].at - o.requests[0].at).Round(time.Millisecond), seconds(o.retryAfter))}
	case c.Fault == Fault429 && !retried:
		return verdict{status: Warning, details: fmt.Sprintf("gave up on a 429 with Retry-After: %s (exit %d) instead of waiting and retrying%s", seconds(o.retryAfter), o.exitCode, stderrExcerpt(o.stderr))}
	case followUp && c.Fault == FaultStall:
		return verdict{status: Success, details: fmt.Sprintf("%s, retried and finished (%s%s)", gaveUp(o), count(len(o.requests), "request"), unstreamed(o))}
	case followUp:
		return verdict{status: Success, details: fmt.Sprintf("retried and finished (%s%s)", count(len(o.requests), "request"), unstreamed(o))}
	case c.Fault == FaultStall:
		return verdict{status: Success, details: fmt.Sprintf("%s: exit %d%s", gaveUp(o), o.exitCode, stderrExcerpt(o.stderr))}
	}
	return verdict{status: Success, details: fmt.Sprintf("gave up with exit %d%s", o.exitCode, stderrExcerpt(o.stderr))}
}

// count is "1 request", "2 requests".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
