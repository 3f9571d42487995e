package quirk

import (
	"fmt"
	"slices"

	"github.com/agentvcr/agentvcr/wire"
)

// All returns every transform of every wire format, each behind the one
// format guard (refused: ErrNotApplicable on a stream in a format other
// than its API), benign ones first, in a fixed order: chat completions'
// (the format-free crlf and comments among them), then Responses', then
// Anthropic Messages'. It is the only list of quirks: ByName, OfAPI and
// Names read it.
func All() []Quirk {
	all := slices.Concat(chatQuirks(), responsesQuirks(), messagesQuirks(), geminiQuirks(), bedrockQuirks(), converseQuirks())
	slices.SortStableFunc(all, func(a, b Quirk) int {
		switch {
		case a.Benign == b.Benign:
			return 0
		case a.Benign:
			return -1
		}
		return 1
	})
	for i := range all {
		// every Apply writes each line's end again, with its format's own
		all[i].compose.rewrites |= aLineEnds
		all[i].streaming.apply = all[i].Apply
		all[i].Apply = guard(all[i].API, all[i].Apply)
	}
	return all
}

// guard makes apply refuse a stream whose format (wire.Detect) is not
// api; a format-free quirk (api "") takes any stream.
func guard(api string, apply func([]byte, int64) ([]byte, error)) func([]byte, int64) ([]byte, error) {
	if api == "" || framed(api) {
		return apply // a framing's quirks read either form and check it themselves (bedrock.go)
	}
	return func(body []byte, seed int64) ([]byte, error) {
		if got := wire.Detect(body).Name; got != api {
			return nil, fmt.Errorf("a %s stream, not %s: %w", got, api, ErrNotApplicable)
		}
		return apply(body, seed)
	}
}

// ByName returns the transform with that name, of any format, or the
// composition a name like "comments+crlf" names (Lookup, which says why
// when there is none).
func ByName(name string) (Quirk, bool) {
	q, err := Lookup(name)
	return q, err == nil
}

// OfAPI returns the transforms of one wire format (agent.Format.Name), in
// All's order, without the format-free ones.
func OfAPI(api string) []Quirk {
	return slices.DeleteFunc(All(), func(q Quirk) bool { return q.API != api })
}

// Names lists every quirk's name, in All's order: what a user may pick.
func Names() []string {
	var names []string
	for _, q := range All() {
		names = append(names, q.Name)
	}
	return names
}
