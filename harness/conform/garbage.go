package conform

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// The printed-answer rule: on a benign case the agent read the same
// conversation as on the clean stream, so it prints what the clean case
// printed (normalize.go says what may differ). Text that comes from the
// quirk itself is garbage, and the case fails naming it:
//
//   - a marker the case declares (Case.Markers: the second choice's
//     "(another answer)" of several_choices), in the output or in any
//     request sent back to the model;
//   - the turn's text or the conclusion printed more times than on the
//     clean stream (the preamble printed twice, or once per piece);
//   - the conclusion not printed at all (its answer was lost);
//   - text parts printed as JSON ([{"type":"text",...}]), which the clean
//     run does not print ("[object Object]" is checkPrinted's).
//
// Lines of its own added to every line of the clean run's output, in
// order, are fine: an agent may show the reasoning a shape adds, or warn
// about the shape. Output that loses or changes a line of the clean run's
// in another way is a WARNING with the difference: conform cannot tell a
// lost word from a line the agent words anew for each run, so a
// maintainer reads it.

// checkMarkers fails a case whose agent printed, or sent back, a marker of
// the case's transform.
func checkMarkers(c Case, o outcome) (verdict, bool) {
	clean := ""
	if o.clean != nil {
		clean = o.clean.stdout
	}
	for _, m := range c.Markers {
		if strings.Contains(string(o.stdout), m) && !strings.Contains(clean, m) {
			return fail("the agent printed %q, text of the second answer the stream carries (%s), which no correct merger keeps", m, c.ID), false
		}
		for n, r := range o.requests {
			if bytes.Contains(r.req.Body, []byte(m)) {
				return fail("request %d sends %q back to the model: text of the second answer the stream carries (%s), which no correct merger keeps", n+1, m, c.ID), false
			}
		}
	}
	return verdict{}, true
}

// checkSameAnswer compares what the agent printed with the clean run's. A
// failure names the garbage (ok false); an unexplained difference is a
// WARNING verdict with ok true, for the caller to report; equal output,
// or no clean run, is the zero verdict.
func checkSameAnswer(o outcome) (verdict, bool) {
	ref := o.clean
	if ref == nil {
		return verdict{}, true
	}
	got := ref.norm.text(string(o.stdout), nil)
	if got == ref.stdout {
		return verdict{}, true
	}
	if strings.Contains(ref.stdout, probeConclusion) && !strings.Contains(got, probeConclusion) {
		return fail("the agent exited 0 without printing the conclusion %q, which it prints in %s: its answer was lost", probeConclusion, ref.id), false
	}
	for _, t := range []struct{ name, text string }{{"the turn's text", probeText}, {"the conclusion", probeConclusion}} {
		if n, clean := strings.Count(got, t.text), strings.Count(ref.stdout, t.text); clean > 0 && n > clean {
			return verdict{status: Failure, details: fmt.Sprintf("the agent printed %s (%q) %d times, where the clean run prints it %s", t.name, t.text, n, times(clean)),
				diff: cmp.Diff(ref.stdout, got)}, false
		}
	}
	for _, parts := range []string{`[{"type":"text"`, `{"type":"text","text":`} {
		if strings.Contains(got, parts) && !strings.Contains(ref.stdout, parts) {
			return verdict{status: Failure, details: fmt.Sprintf("the agent printed the text parts as JSON (%s…), not their text", parts),
				diff: cmp.Diff(ref.stdout, got)}, false
		}
	}
	if keepsLines(got, ref.stdout) {
		return verdict{}, true // lines of its own added (thinking shown, a warning), none lost
	}
	return verdict{status: Warning, details: "it printed other than on the clean stream (the difference is below)", diff: cmp.Diff(ref.stdout, got)}, true
}

// keepsLines reports whether every line of clean is in got, in order:
// got may add lines, but loses or changes none.
func keepsLines(got, clean string) bool {
	lines := strings.Split(got, "\n")
	i := 0
	for _, want := range strings.Split(clean, "\n") {
		for i < len(lines) && lines[i] != want {
			i++
		}
		if i == len(lines) {
			return false
		}
		i++
	}
	return true
}

// times is "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
