package conform

import "strings"

// On a benign case the assistant message must re-send the text the stream
// delivered, as merged (on content_parts four agents re-sent
// `[{"type":"text",...}]`, "[object Object]" or null, and conform said
// SUCCESS because it compared the calls only). A text dropped, garbled or
// dumped as JSON loses what the model said; the printed answer is checked
// for the same garbling.

// checkText checks the text of the assistant message at a of request n
// against the merged turn's, want (probeText, or a captured turn's).
func checkText(r Request, a, n int, want string) (verdict, bool) {
	got := r.Messages[a].Text
	if got == want || (got == "" && r.Messages[a].TextByReference) {
		return verdict{}, true
	}
	switch {
	case got == "":
		return fail("request %d: the assistant message drops the text the stream delivered (%q)", n, want), false
	case strings.Contains(got, "[object Object]"):
		return fail("request %d: the assistant message's text is %q: the text parts were turned into a string with JavaScript's String(), not joined", n, got), false
	case strings.HasPrefix(strings.TrimSpace(got), "[{") || strings.HasPrefix(strings.TrimSpace(got), "{"):
		return fail("request %d: the assistant message's text is the parts dumped as JSON (%q), not their text", n, cut200(got)), false
	case got == "null" || got == "undefined":
		return fail("request %d: the assistant message's text is %q", n, got), false
	}
	return fail("request %d: the assistant message's text is %q, the stream's is %q", n, cut200(got), want), false
}

// checkPrinted fails an answer printed with "[object Object]" in it.
func checkPrinted(stdout []byte) (verdict, bool) {
	if strings.Contains(string(stdout), "[object Object]") {
		return fail("the agent printed %q as its answer: the conclusion's text parts were turned into a string, not joined", "[object Object]"), false
	}
	return verdict{}, true
}
