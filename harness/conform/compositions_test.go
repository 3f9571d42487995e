package conform

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/quirk"
)

// Each composition real gateways send is a case of chat's catalog, after
// the single quirks, with its own doc and source, a transform that is the
// composed quirk's, and a benign expectation (its parts are benign).
func TestKnownCompositionsAreCases(t *testing.T) {
	conv, err := chatFormat.build(Request{Model: "m", Tools: AgentvcrTools()}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	clean := conv.turns[0]
	all := Cases()
	last := slices.IndexFunc(all, func(c Case) bool { return c.ID == "bad_args" })
	for i, k := range chatCompositions {
		at := slices.IndexFunc(all, func(c Case) bool { return c.ID == k.name })
		if at != last+1+i {
			t.Errorf("%s is case %d, want %d (after the single quirks, in the list's order)", k.name, at, last+1+i)
			continue
		}
		c := all[at]
		if c.Tier != TierQuirk || c.Expect != ExpectSame || c.Source != k.source || !strings.HasSuffix(c.Doc, " ("+k.source+")") {
			t.Errorf("%s: tier %s, expect %v, source %q, doc %q", k.name, c.Tier, c.Expect, c.Source, c.Doc)
		}
		q, err := quirk.Lookup(k.name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := q.Apply(clean, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Transform(clean, 1)
		if err != nil || string(got) != string(want) || string(got) == string(clean) {
			t.Errorf("%s: the case's transform differs from the composed quirk's, or changes nothing (%v)", k.name, err)
		}
	}
}
