package conform

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/quirk"
)

// ErrBadReport is returned for a JSON report with a field conform -json
// never writes: report merge and report md read such a file no further.
var ErrBadReport = errors.New("bad report")

// checkReport checks every field of every check that report merge and
// report md read, so that nothing they print or join comes from a field
// out of its range. A file passes it or is refused at its first bad field:
// one line naming the file, the check and the field (values are quoted, so
// a newline in one cannot start a second line).
//
// The fields with a grammar must match it, which leaves no room for a
// newline or a tag: api a format of package wire, id a case of that
// format's catalog (the recorded catalog with a cassette), a composition
// of its quirk cases, or with file set a case file's own id, tier that
// case's tier, status one of the four verdicts, other_provider empty or
// that case's provider, shard empty or I/N as conform -shard writes it.
// The counts (requests, duration_ms) are 0 or more, exit_code is -1 (the
// agent was killed or never started) or more. The one-line texts (agent,
// cassette, description, source, file) hold no control character. details and
// diff are the agent's own words, many lines at times: they are read as
// they are and every writer escapes them.
func checkReport(name string, checks []Check) error {
	bad := func(i int, format string, a ...any) error {
		return fmt.Errorf("%w %s: check %d: "+format, append([]any{ErrBadReport, name, i + 1}, a...)...)
	}
	if len(checks) == 0 {
		return fmt.Errorf("%w %s: no check in it: conform -json writes at least one", ErrBadReport, name)
	}
	for i, c := range checks {
		format, err := FormatByName(c.API)
		if err != nil {
			return bad(i, "\"api\" is %q: want one of %s", c.API, strings.Join(formatNames(), ", "))
		}
		catalog := format.Cases()
		if c.Cassette != "" {
			catalog = RecordedCases(format)
		}
		want, ok := reportedCase(catalog, c)
		if !ok {
			return bad(i, "\"id\" is %q, which this agentvcr's -api %s catalog does not have: use the agentvcr that ran conform", c.ID, c.API)
		}
		switch {
		case c.Tier != want.Tier:
			return bad(i, "\"tier\" is %q, the case %s is of the tier %q", c.Tier, c.ID, want.Tier)
		case !slices.Contains([]Status{Success, Failure, Warning, Skipped}, c.Status):
			return bad(i, "\"status\" is %q: want SUCCESS, FAILURE, WARNING or SKIPPED", c.Status)
		case c.OtherProvider != "" && c.OtherProvider != want.Provider():
			return bad(i, "\"other_provider\" is %q: the case %s is of %s", c.OtherProvider, c.ID, providerOr(want.Provider()))
		case c.Requests < 0:
			return bad(i, "\"requests\" is %d: a count is 0 or more", c.Requests)
		case c.DurationMS < 0:
			return bad(i, "\"duration_ms\" is %d: a duration is 0 or more", c.DurationMS)
		case c.ExitCode < -1:
			return bad(i, "\"exit_code\" is %d: want -1 (killed or never started) or an exit status", c.ExitCode)
		case c.Vacuous && (c.Status != Skipped || !want.OnArguments):
			return bad(i, "\"vacuous\" is true on a %s case %s: only a SKIPPED case of a quirk that edits argument text alone is vacuous", c.Status, c.ID)
		}
		if c.Shard != "" {
			if s, err := ParseShard(c.Shard); err != nil || s.String() != c.Shard {
				return bad(i, "\"shard\" is %q: want I/N with 1 <= I <= N, as conform -shard writes it", c.Shard)
			}
		}
		for _, f := range []struct{ name, value string }{
			{"agent", c.Agent}, {"cassette", c.Cassette}, {"description", c.Description}, {"source", c.Source}, {"file", c.File},
		} {
			if hasControl(f.value) {
				return bad(i, "%q is %q: a control character (a newline among them) is no part of it", f.name, f.value)
			}
		}
	}
	return nil
}

// formatNames are the names FormatByName knows.
func formatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
	}
	return names
}

// providerOr is the provider, or "no provider" for a case of none.
func providerOr(p string) string {
	if p == "" {
		return "no provider"
	}
	return p
}

// hasControl says whether s holds what visible escapes (a C0 or C1
// control, DEL, a bidirectional override, a byte that is not UTF-8) or a
// tab: what one line of a report's heading or table cannot show as it is.
func hasControl(s string) bool {
	return visible(s) != s || strings.ContainsRune(s, '\t')
}

// reportedCase is the case a check reports: the catalog's case of its id,
// the composition its id names (q1+q2), or, for a check with a file, a
// case file's case, whose id is its own (one word, no catalog case's) and
// whose tier is the quirk tier; a case file's quirk may edit argument
// text alone, so its check may be vacuous.
func reportedCase(catalog []Case, c Check) (Case, bool) {
	if k := slices.IndexFunc(catalog, func(cs Case) bool { return cs.ID == c.ID }); k >= 0 {
		return catalog[k], c.File == ""
	}
	if c.File != "" {
		return Case{Tier: TierQuirk, OnArguments: true}, caseFileID.MatchString(c.ID)
	}
	if strings.Contains(c.ID, quirk.Separator) {
		composed, err := composedCase(catalog, c.ID)
		return composed, err == nil
	}
	return Case{}, false
}
