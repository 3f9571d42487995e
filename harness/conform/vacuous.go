package conform

import (
	"encoding/json"
	"slices"
	"strings"
)

// A probe call whose arguments are {} gives every quirk that cuts the
// arguments into pieces (args_one_rune, args_split_escapes, args_cumulative
// and the others whose transform only edits argument pieces) nothing to
// cut: an SDK that drops or glues pieces loses nothing of "{}", and the case
// would pass by accident. So a tool that requires no member still gets one
// (optionalArguments), and a case that could not reach the agent anyway is
// SKIPPED as vacuous, never a SUCCESS.

// optionalArguments is the arguments of a call to a tool whose schema
// requires no member: one of its optional members, the first by name that
// is a file or folder path (a real one, so the tool runs), else a pattern,
// else a string, else any; with no member declared, a member "probe" with
// a probe string, unless the schema forbids members it does not name
// (additionalProperties: false), when "{}" is all the probe can send.
func optionalArguments(t Tool, variant int, paths probePaths) string {
	var s map[string]any
	_ = json.Unmarshal(t.Schema, &s) // toolArguments read it already; an empty schema is {}
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		if extra, ok := s["additionalProperties"].(bool); ok && !extra {
			return "{}"
		}
		var b strings.Builder
		b.WriteString(`{"probe":`)
		writeString(&b, probeStrings[variant], variant)
		b.WriteByte('}')
		return b.String()
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	rank := func(name string) int {
		sub, _ := props[name].(map[string]any)
		if schemaType(sub) != "string" {
			return 3
		}
		switch paramRole(t.Name, name) {
		case paramFile, paramDir:
			if _, ok := paths.value(paramRole(t.Name, name), sub); ok {
				return 0
			}
		case paramPattern:
			return 1
		}
		return 2
	}
	best := names[0]
	for _, name := range names[1:] {
		if rank(name) < rank(best) {
			best = name
		}
	}
	sub, _ := props[best].(map[string]any)
	var b strings.Builder
	b.WriteByte('{')
	writeString(&b, best, variant)
	b.WriteByte(':')
	if p, ok := paths.value(paramRole(t.Name, best), sub); ok {
		writeString(&b, p, variant)
	} else {
		writeValue(&b, sub, variant, 0, best, nil)
	}
	b.WriteByte('}')
	return b.String()
}

// vacuous reports whether every call of the probe's tool turn carries no
// arguments: then a case whose transform only cuts arguments into pieces
// has nothing to cut.
func vacuous(calls []Call) bool {
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		if strings.TrimSpace(c.Arguments) != "{}" {
			return false
		}
	}
	return true
}

// vacuousVerdict is the SKIPPED verdict of such a case: why, and the -call
// that would run it.
func vacuousVerdict(c Case, calls []Call) verdict {
	var names []string
	for _, call := range calls {
		if !slices.Contains(names, call.Name) {
			names = append(names, call.Name)
		}
	}
	return verdict{status: Skipped, vacuous: true,
		details: "vacuous: the probe's calls (" + strings.Join(names, ", ") + ") carry no arguments, as their schemas allow no member, so " + c.ID +
			" has nothing to cut into pieces and would pass by accident; run it with -call NAME=ARGS_JSON naming a tool that takes arguments"}
}
