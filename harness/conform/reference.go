package conform

import "strings"

// A cleanRun is what the agent did on the clean stream, the yardstick of
// the metamorphic rules: on a benign case the agent runs the same tools
// with the same arguments in the same folder, so it gets the same results
// and prints the same answer (results.go, printed.go). It is taken from
// the first case (clean) when that case passed, and is nil otherwise, or
// in recorded mode, where the replay's requests are the yardstick.
type cleanRun struct {
	id   string // the clean case's
	norm normaliser
	// results are the tool results of the first request that answers the
	// tool turn, normalised, by the call they answer (callKey).
	results map[string]string
	// stdout is what the agent printed, normalised.
	stdout string
}

// newCleanRun reads the clean run from the clean case's outcome; nil when
// no request answers the tool turn.
func newCleanRun(id, dir string, o outcome) *cleanRun {
	ref := &cleanRun{id: id, norm: newNormaliser(dir)}
	for _, r := range o.requests {
		if a := firstAssistant(r.req); a >= 0 {
			ref.results = ref.toolResults(r.req, a)
			break
		}
	}
	if ref.results == nil {
		return nil
	}
	ref.stdout = ref.norm.text(string(o.stdout), nil)
	return ref
}

// callKey is what identifies a call across runs: its name and its
// arguments as canonical JSON (ids differ from run to run).
func callKey(c Call) string {
	return c.Name + " " + canonicalArgs(c.Arguments)
}

// toolResults are the normalised texts of the tool messages of r that
// answer the calls of the assistant message at a, by callKey.
func (ref *cleanRun) toolResults(r Request, a int) map[string]string {
	calls := r.Messages[a].Calls
	ids := callIDs(calls)
	byID := map[string]Call{}
	for _, c := range calls {
		byID[c.ID] = c
	}
	out := map[string]string{}
	for _, m := range r.Messages[a+1:] {
		if m.Role != "tool" {
			continue
		}
		if c, ok := byID[m.CallID]; ok {
			out[callKey(c)] = ref.norm.text(m.Text, ids)
		}
	}
	return out
}

// answerOf is the text of the tool message of r that answers id, and
// whether there is one.
func answerOf(r Request, a int, id string) (string, bool) {
	for _, m := range r.Messages[a+1:] {
		if m.Role == "tool" && m.CallID == id {
			return m.Text, true
		}
	}
	return "", false
}

// oneLine is s cut to 200 bytes (cut200) with its line ends written \n,
// for a verdict's one line of details.
func oneLine(s string) string {
	return strings.ReplaceAll(cut200(s), "\n", `\n`)
}

// cleanRun is the clean run of the case (the first one, which ran alone
// and printed stdout), in the folder dir.
func (st *caseState) cleanRun(dir string, stdout []byte) *cleanRun {
	st.mu.Lock()
	defer st.mu.Unlock()
	return newCleanRun(st.c.ID, dir, outcome{requests: st.reqs, stdout: stdout})
}
