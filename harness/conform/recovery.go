package conform

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// What an agent may send on after a stream that broke inside the tool turn
// (a broken stream, or a stall or reset fault):
//
//   - anything cut or corrupt (a call the stream did not finish, sent or
//     run as if whole, a call it never sent, text it never delivered) is a
//     FAILURE;
//   - keeping only the calls the stream delivered whole (Case.Delivered:
//     every call but the cut one, or every call when the stream broke after
//     each call's end, as a Responses stream cut after every
//     output_item.done) is salvage, a WARNING that says so and whether the
//     agent ran them from a stream that then failed;
//   - sending the cut call back refused, answered with an error instead of
//     run (refusal.go), is a deliberate recovery, a WARNING;
//   - resuming from the delivered text with no call (Claude Code and Qwen
//     Code add a note asking the model to go on) is a WARNING.
//
// Retrying the same request, or giving up, stays right; so is going on
// with the whole turn read from a non-streamed retry (fallback.go).

// recovery finds the first request whose first assistant message is not
// the merged tool turn, and judges it by the policy above; found is false
// when every assistant message sent is the whole turn (or none was sent)
// and the stream did not deliver every call whole.
func recovery(c Case, want []Call, o outcome) (v verdict, found bool) {
	withIDs := !c.DropsIDs
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		msg := r.req.Messages[a]
		if sent, _ := inSentOrder(want, msg.Calls, withIDs, -1); cmp.Equal(views(sent, withIDs, -1), views(msg.Calls, withIDs, -1)) {
			if c.Expect == ExpectBroken && c.Delivered == DeliveredAll && len(fallbacks(o.requests[:n])) == 0 {
				return salvaged(r.req, a, n+1, len(msg.Calls), len(want), 0), true
			}
			continue
		}
		return judgeRecovery(c, want, withIDs, r.req, a, n+1, o.clean, o.text), true
	}
	return verdict{}, false
}

// judgeRecovery judges the assistant message at a of request n, which is
// not the whole tool turn.
func judgeRecovery(c Case, want []Call, withIDs bool, r Request, a, n int, ref *cleanRun, text string) verdict {
	msg := r.Messages[a]
	diff := cmp.Diff(messageViews([]Message{{Role: "assistant", Text: text, Calls: want}}), messageViews([]Message{msg}))
	if len(msg.Calls) == 0 {
		if !strings.HasPrefix(text, msg.Text) {
			return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn with text the stream never delivered: %q", n, msg.Text), diff: diff}
		}
		return verdict{status: Warning, details: fmt.Sprintf("request %d resumes from the delivered text (%q) with no call: nothing cut was sent", n, msg.Text)}
	}
	whole := c.whole(want)
	kept, refusals := 0, 0
	for i, call := range msg.Calls {
		if i < len(whole) && cmp.Equal(views(whole[i:i+1], withIDs, -1), views([]Call{call}, withIDs, -1)) {
			kept++
			continue
		}
		if i < len(want) && i >= len(whole) {
			result, answered := answerOf(r, a, call.ID)
			if refused(call, want[i], result, answered, ref) {
				refusals++
				continue
			}
			if answered && ref != nil && ref.norm.text(result, nil) == ref.results[callKey(want[i])] {
				return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn: call %d (%s %s) was cut by the stream, and is answered with the result the whole call gets on the clean stream: it ran as if whole",
					n, i+1, call.Name, cut200(call.Arguments)), diff: diff}
			}
			if answered && canonicalArgs(call.Arguments) != canonicalArgs(want[i].Arguments) && !refusalWordsRe.MatchString(result) {
				return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn: call %d (%s %s) was cut by the stream, and is sent back with other arguments and a result that does not say so (%q): the model is misled about what it sent",
					n, i+1, call.Name, cut200(call.Arguments), oneLine(result)), diff: diff}
			}
		}
		return verdict{status: Failure, details: fmt.Sprintf("request %d sends on the broken turn: call %d (%s %s) is not a call the stream completed", n, i+1, call.Name, cut200(call.Arguments)), diff: diff}
	}
	if refusals > 0 {
		return verdict{status: Warning, details: fmt.Sprintf("request %d keeps %d completed %s of %d and sends the cut one back refused: not run, its result says why",
			n, kept, plural(kept, "call", "calls"), len(want))}
	}
	return salvaged(r, a, n, kept, len(want), len(want)-len(whole))
}

// salvaged is the WARNING of an agent that kept the kept calls the stream
// delivered whole, of all, and dropped the cut ones (none when the stream
// delivered every call whole).
func salvaged(r Request, a, n, kept, all, cut int) verdict {
	ran := ""
	if answered(r, a, r.Messages[a].Calls) {
		ran = fmt.Sprintf("; it ran %s from a stream that then failed", plural(kept, "it", "them"))
	}
	if cut == 0 {
		return verdict{status: Warning, details: fmt.Sprintf("request %d keeps all %d calls, each delivered whole before the stream broke%s", n, kept, ran)}
	}
	return verdict{status: Warning, details: fmt.Sprintf("request %d keeps %d completed %s of %d and drops the cut one%s", n, kept, plural(kept, "call", "calls"), all, ran)}
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
