package conform

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/quirk"
)

// composedCase is the case of a composition of quirks (quirk.Lookup reads
// "ids_dropped+args_one_rune"), built from its parts' cases in all: the
// composed quirk's transform, on the turns its parts' cases break (the
// tool turn only when a part's case says so). What a correct agent does
// follows from the parts: when every part's case expects the clean turn,
// so does the composition's (ids dropped and markers as any part's);
// when one part's case is broken (cut, an error, bad arguments), the
// composition's expects what that one does, with what it delivered.
// quirk.Compose refuses two parts that break the answer, so there is never
// more than one. A format-free part (comments, crlf) is a benign case of
// any format, though only chat's catalog lists it; a part that is no quirk
// case of this format (another format's quirk) is refused.
func composedCase(all []Case, name string) (Case, error) {
	q, err := quirk.Lookup(name)
	if err != nil {
		return Case{}, fmt.Errorf("%w %q: %v", ErrUnknownCase, name, err)
	}
	c := Case{ID: name, Tier: TierQuirk, Expect: ExpectSame, Doc: q.Doc, DropsIDs: q.DropsIDs, Transform: q.Apply, Markers: q.Markers, OnArguments: q.OnArguments, Echoes: q.Echoes}
	var sources []string
	for _, p := range q.Parts() {
		i := slices.IndexFunc(all, func(c Case) bool { return c.ID == p.Name && c.Tier == TierQuirk })
		var part Case
		switch {
		case i >= 0:
			part = all[i]
		case p.API == "" && p.Benign: // a format-free quirk (comments), a case of chat's catalog only
			part = quirkCase(p)
		default:
			return Case{}, fmt.Errorf("%w %q: its part %s is no quirk case of this catalog", ErrUnknownCase, name, p.Name)
		}
		sources = append(sources, part.Source)
		c.ToolTurnOnly = c.ToolTurnOnly || part.ToolTurnOnly
		if part.Expect != ExpectSame {
			c.Expect, c.Delivered, c.Echo = part.Expect, part.Delivered, part.Echo
		}
	}
	c.Source = strings.Join(sources, "; ")
	return c, nil
}
