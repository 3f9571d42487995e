package conform

import "fmt"

// A knownComposition is a composition of catalog quirks that a real
// gateway is known to send: the catalog runs it as a case of its own,
// under its composed id, with where it was seen. What it demands follows
// from its parts (composedCase).
type knownComposition struct {
	name   string // parts joined by quirk.Separator, in the order they apply
	doc    string // what the gateway sends, in one line
	source string // where it was seen
}

// chatCompositions are the compositions of chat completions' catalog.
// Each part alone is a case already; together they break code that copes
// with each on its own, such as a reader that tells the end of a stream by
// a comment-free last line, or splits events on "\n\n" and then reads
// JSON pieces that end inside a string.
var chatCompositions = []knownComposition{
	{"comments+no_done", "comment lines among the events and no [DONE]: the stream ends at its finish_reason and the connection's close",
		"an upstream sending heartbeat comments and never [DONE], maximhq/bifrost #6784"},
	{"comments+args_one_rune", "OpenRouter's comment lines before and between the events, and arguments one character a piece",
		"OpenRouter's documented comments; Kimi through OpenRouter in charmbracelet/fantasy's recordings"},
	{"args_split_escapes+crlf", "argument pieces split inside strings and escapes, and CRLF line ends",
		"Azure OpenAI: fine pieces in charmbracelet/fantasy's Azure recording, CRLF in Continuum-AI-Corp/OrcaRouter-Lite PR #98"},
}

// compositionCases are the cases of known, the compositions of a catalog
// whose single cases are all: each composedCase's, with the composition's
// own doc and source.
func compositionCases(all []Case, known []knownComposition) []Case {
	var cases []Case
	for _, k := range known {
		c, err := composedCase(all, k.name)
		if err != nil {
			// the list is ours and fixed: a part renamed or two parts that
			// no longer compose is a bug that every catalog test shows
			panic(fmt.Sprintf("known composition %s: %v", k.name, err))
		}
		c.Doc, c.Source = k.doc+" ("+k.source+")", k.source
		cases = append(cases, c)
	}
	return cases
}
