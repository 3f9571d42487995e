package conform

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// What an agent may send on after a stream that broke inside the tool turn
// (a broken stream, or a stall or reset fault), issue 19:
//
//   - anything cut or corrupt (a call the stream did not finish, a call it
//     never sent, text it never delivered) is a FAILURE;
//   - keeping only the calls that completed before the break (salvage,
//     Claude Code's messages_cut_before_stop) is a WARNING that says so and
//     that the agent ran them from a stream that then failed;
//   - resuming from the delivered text with no call (Claude Code and Qwen
//     Code add a note asking the model to go on) is a WARNING.
//
// Retrying the same request, or giving up, stays right; so is going on
// with the whole turn read from a non-streamed retry (fallback.go).

// recovery finds the first request whose first assistant message is not
// the merged tool turn, and judges it by the policy above; found is false
// when every assistant message sent is the whole turn (or none was sent).
func recovery(c Case, want []Call, o outcome) (v verdict, found bool) {
	withIDs := !c.DropsIDs
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		msg := r.req.Messages[a]
		if cmp.Equal(views(want, withIDs, -1), views(msg.Calls, withIDs, -1)) {
			continue
		}
		return judgeRecovery(want, withIDs, r.req, a, n+1), true
	}
	return verdict{}, false
}

// judgeRecovery judges the assistant message at a of request n, which is
// not the whole tool turn.
func judgeRecovery(want []Call, withIDs bool, r Request, a, n int) verdict {
	msg := r.Messages[a]
	diff := cmp.Diff(messageViews([]Message{{Role: "assistant", Text: probeText, Calls: want}}), messageViews([]Message{msg}))
	if len(msg.Calls) == 0 {
		if !strings.HasPrefix(probeText, msg.Text) {
			return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn with text the stream never delivered: %q", n, msg.Text), diff: diff}
		}
		return verdict{status: Warning, details: fmt.Sprintf("request %d resumes from the delivered text (%q) with no call: nothing cut was sent", n, msg.Text)}
	}
	completed := want[:max(len(want)-1, 0)] // the stream breaks inside the last call
	kept := 0
	for i, call := range msg.Calls {
		if i >= len(completed) || !cmp.Equal(views(completed[i:i+1], withIDs, -1), views([]Call{call}, withIDs, -1)) {
			return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn: call %d (%s %s) is not a call the stream completed", n, i+1, call.Name, call.Arguments), diff: diff}
		}
		kept++
	}
	ran := ""
	if answered(r, a, msg.Calls) {
		ran = fmt.Sprintf("; it ran %s from a stream that then failed", plural(kept, "it", "them"))
	}
	return verdict{status: Warning, details: fmt.Sprintf("request %d keeps %d completed %s of %d and drops the cut one%s", n, kept, plural(kept, "call", "calls"), len(want), ran)}
}

// answered reports whether a tool message after the assistant message at a
// answers every one of calls.
func answered(r Request, a int, calls []Call) bool {
	got := map[string]bool{}
	for _, m := range r.Messages[a+1:] {
		if m.Role == "tool" {
			got[m.CallID] = true
		}
	}
	for _, c := range calls {
		if !got[c.ID] {
			return false
		}
	}
	return true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// recovered is the verdict of a case whose agent recovered from the break
// (v a WARNING), given how it ended.
func recovered(v verdict, o outcome) verdict {
	if o.timedOut {
		return fail("%s, then was still running after -timeout %s: killed", v.details, o.timeout)
	}
	v.details += fmt.Sprintf("; exit %d", o.exitCode)
	return v
}
