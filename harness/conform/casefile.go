package conform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/rogpeppe/go-internal/txtar"
)

// ErrCaseFile is returned for a case file conform cannot run: the error
// names the file (and the line where there is one) and what is wrong.
var ErrCaseFile = errors.New("bad case file")

// CaseFileExt is how the name of a case file ends: conform -cases DIR
// reads every file of DIR whose name ends so, and no other.
const CaseFileExt = ".txtar"

// A case file is a txtar archive, the form of the scenarios: its comment
// is a field a line ("id: …"), which reads and reviews like any text in a
// pull request. It composes catalog quirks (quirks: …), or, instead of
// quirks, holds one file section, -- turn.sse --: the stream a gateway
// sent for the turn with the calls, captured (captured.go serves it).
//
//	# why this case exists, for the reviewer
//	id: acme_gateway_runes
//	api: chat
//	doc: the ACME gateway drops call ids and sends arguments one rune a piece
//	seen: ACME gateway 2.3, ticket OPS-1432
//	quirks: ids_dropped + args_one_rune
var caseFileFields = []string{"id", "api", "doc", "seen", "quirks", "expect", "reason"}

// optionalFields may be left out: quirks when the file holds a captured
// stream, expect (and with it reason) always.
var optionalFields = []string{"expect", "reason"}

// caseFileID is what an id may be: it names the case in tables,
// baselines and -out folders, so one word of lower-case letters, digits
// and underscores, as the catalog's ids are.
var caseFileID = regexp.MustCompile(`^[a-z0-9][a-z0-9_]*$`)

// A CaseFile is one case file, read and checked against the catalog of
// its format: Case is what conform runs for it.
type CaseFile struct {
	Path   string
	API    string
	Quirks []string // as the file names them, in order
	Case   Case
	// Expected is the file's expect field when it overrides the derived
	// expectation ("benign" or "broken"), empty when it does not.
	Expected string
}

// Derived says in a few words what the case demands of an agent, as its
// quirks or its stream decide it: "benign" (the merged calls re-sent,
// answered, and the run finished) or "broken" (nothing of the turn sent
// on, no exit 0), or the file's own expect, "broken, by the file".
func (cf CaseFile) Derived() string {
	if cf.Expected != "" {
		return cf.Expected + ", by the file"
	}
	switch cf.Case.Expect {
	case ExpectBroken, ExpectFirstOrBroken:
		return "broken"
	case ExpectBadArgs:
		return "benign, bad arguments"
	}
	return "benign"
}

// ReadCaseFiles reads the case files of dirs, in the order of dirs and of
// the names in each, and returns those for format f as cases of the quirk
// tier beside the catalog all (f's own): each is the catalog quirk it
// names, or the composition of those it names (composedCase), its
// expectation derived from them as -case q1+q2's is, under the file's id,
// doc and seen, with File set. Files for another format are checked
// against theirs and not run; their paths come back in other so the
// caller can say so. A file that does not parse, misses a field, names an
// unknown format or quirk, quirks that cannot compose, or an id that a
// catalog case or another file has, is an error wrapping ErrCaseFile that
// names the file (the first such, in that order); nothing is run then.
func ReadCaseFiles(f Format, all []Case, dirs []string) (cases []Case, other []string, err error) {
	files, errs := readCaseFiles(dirs, func(g Format) []Case {
		if g.Name == f.Name {
			return all
		}
		return g.Cases()
	})
	if len(errs) > 0 {
		return nil, nil, errs[0]
	}
	for _, cf := range files {
		if cf.API == f.Name {
			cases = append(cases, cf.Case)
		} else {
			other = append(other, cf.Path)
		}
	}
	return cases, other, nil
}

// CheckCaseFiles reads the case files of dirs as ReadCaseFiles does, each
// against its own format's catalog, and returns those that pass and every
// problem found, one error each (agentvcr case check prints them all).
func CheckCaseFiles(dirs []string) ([]CaseFile, []error) {
	return readCaseFiles(dirs, Format.Cases)
}

// readCaseFiles reads the case files of dirs, each checked against
// catalogOf its format.
func readCaseFiles(dirs []string, catalogOf func(Format) []Case) (files []CaseFile, errs []error) {
	seen := map[string]string{} // id → the file that has it
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %v", ErrCaseFile, err))
			continue
		}
		n := 0
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), CaseFileExt) {
				continue
			}
			n++
			path := filepath.Join(dir, e.Name())
			cf, err := parseCaseFile(path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if prev, ok := seen[cf.id]; ok {
				errs = append(errs, fmt.Errorf("%w %s: id %s is also the id of %s", ErrCaseFile, path, cf.id, prev))
				continue
			}
			seen[cf.id] = path
			format, err := FormatByName(cf.api)
			if err != nil {
				errs = append(errs, fmt.Errorf("%w %s:%d: %v", ErrCaseFile, path, cf.apiLine, err))
				continue
			}
			all := catalogOf(format)
			if slices.ContainsFunc(all, func(c Case) bool { return c.ID == cf.id }) {
				errs = append(errs, fmt.Errorf("%w %s:%d: id %s is a case of the catalog: give the file an id of its own", ErrCaseFile, path, cf.idLine, cf.id))
				continue
			}
			var c Case
			if cf.stream != nil {
				c, err = cf.captured(format)
			} else if c, err = cf.compose(all); err != nil {
				err = fmt.Errorf("%w %s:%d: %v", ErrCaseFile, path, cf.quirksLine, err)
			}
			if err == nil {
				c, err = cf.override(c)
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			files = append(files, CaseFile{Path: path, API: format.Name, Quirks: cf.quirks, Case: c, Expected: cf.expect})
		}
		if n == 0 {
			errs = append(errs, fmt.Errorf("%w: %s holds no case file (a file whose name ends %s)", ErrCaseFile, dir, CaseFileExt))
		}
	}
	return files, errs
}

// caseFile is a case file as read, with the line of each field for the
// errors.
type caseFile struct {
	path                        string
	id, api, doc, seen          string
	quirks                      []string
	stream                      []byte // the captured turn, nil when the file composes quirks
	expect, reason              string // an expectation that overrides the derived one, and why
	expectLine                  int
	idLine, apiLine, quirksLine int
}

// parseCaseFile reads one case file's fields: each once, each one line,
// no field it does not know.
func parseCaseFile(path string) (caseFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return caseFile{}, fmt.Errorf("%w: %v", ErrCaseFile, err)
	}
	return parseCaseFileData(path, data)
}

// parseCaseFileData is parseCaseFile on the file's bytes.
func parseCaseFileData(path string, data []byte) (caseFile, error) {
	cf := caseFile{path: path}
	bad := func(line int, format string, args ...any) (caseFile, error) {
		return caseFile{}, fmt.Errorf("%w %s:%d: %s", ErrCaseFile, path, line, fmt.Sprintf(format, args...))
	}
	ar := txtar.Parse(data)
	comment := string(ar.Comment)
	lines := strings.Split(strings.TrimSuffix(comment, "\n"), "\n")
	for i, f := range ar.Files {
		if f.Name != CapturedTurnFile || i > 0 {
			return bad(len(lines)+1, "a file section -- %s --: a case file holds one at the most, -- %s --, the captured stream of the turn with the calls", f.Name, CapturedTurnFile)
		}
		if len(bytes.TrimSpace(f.Data)) == 0 {
			return bad(len(lines)+1, "-- %s -- is empty: paste the stream the gateway sent", CapturedTurnFile)
		}
		cf.stream = f.Data
	}
	if found := cassette.KeyShapesIn(data); len(found) > 0 {
		return caseFile{}, fmt.Errorf("%w %s: it holds a credential (%s): remove it, a case file is kept in a repository", ErrCaseFile, path, strings.Join(found, "; "))
	}
	got := map[string]int{}
	for i, line := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return bad(n, "%q is no field: write one field a line, name: value (the fields are %s)", line, strings.Join(caseFileFields, ", "))
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !slices.Contains(caseFileFields, key) {
			return bad(n, "unknown field %q (the fields are %s)", key, strings.Join(caseFileFields, ", "))
		}
		if prev, ok := got[key]; ok {
			return bad(n, "field %s given twice (first on line %d)", key, prev)
		}
		got[key] = n
		if value == "" {
			return bad(n, "field %s is empty", key)
		}
		if strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return bad(n, "field %s holds a control character", key)
		}
		switch key {
		case "id":
			if !caseFileID.MatchString(value) {
				return bad(n, "id %q: an id is lower-case letters, digits and underscores, as the catalog's are", value)
			}
			cf.id, cf.idLine = value, n
		case "api":
			cf.api, cf.apiLine = value, n
		case "doc":
			cf.doc = value
		case "seen":
			cf.seen = value
		case "quirks":
			for _, q := range strings.Split(value, quirk.Separator) {
				cf.quirks = append(cf.quirks, strings.TrimSpace(q))
			}
			cf.quirksLine = n
		case "expect":
			if value != "benign" && value != "broken" {
				return bad(n, "expect %q: want benign or broken", value)
			}
			cf.expect, cf.expectLine = value, n
		case "reason":
			cf.reason = value
		}
	}
	if _, ok := got["expect"]; ok != (got["reason"] > 0) {
		return bad(max(got["expect"], got["reason"]), "expect and reason go together: an expectation that overrides the derived one says why")
	}
	for _, key := range caseFileFields {
		if _, ok := got[key]; !ok && !slices.Contains(optionalFields, key) && (key != "quirks" || cf.stream == nil) {
			return bad(len(lines), "field %s is missing (the fields are %s)", key, strings.Join(caseFileFields, ", "))
		}
	}
	if _, ok := got["quirks"]; ok && cf.stream != nil {
		return bad(got["quirks"], "quirks and a captured stream: give one (the quirks edit the probe's turn, the captured stream is served as it is)")
	}
	return cf, nil
}

// compose returns the file's case: the catalog quirk it names, or the
// composition of those it names, under the file's id, doc and seen.
func (cf caseFile) compose(all []Case) (Case, error) {
	name := strings.Join(cf.quirks, quirk.Separator)
	var c Case
	if len(cf.quirks) == 1 {
		i := slices.IndexFunc(all, func(c Case) bool { return c.ID == name && c.Tier == TierQuirk })
		q, err := quirk.Lookup(name)
		switch {
		case i >= 0:
			c = all[i]
		case err == nil && q.API == "" && q.Benign: // format-free (comments): a case of chat's catalog only
			c = quirkCase(q)
		default:
			return Case{}, fmt.Errorf("%w %q: it is no quirk case of the -api %s catalog (agentvcr conform -list shows them)", ErrUnknownCase, name, cf.api)
		}
	} else {
		var err error
		if c, err = composedCase(all, name); err != nil {
			return Case{}, err
		}
	}
	c.ID, c.Doc, c.Source, c.File = cf.id, cf.doc, cf.seen, cf.path
	return c, nil
}

// CapturedTurnFile names the file section of a case file that holds a
// captured stream: the model's turn with the calls, as the gateway sent it.
const CapturedTurnFile = "turn.sse"

// captured returns the case of a file that holds a captured turn: conform
// serves the stream as it is for the turn with the calls (the calls name
// the agent's own tools with the arguments the stream carries), then the
// probe's conclusion. What a correct agent does is what our merger makes
// of the stream: the calls it merges re-sent and answered when it merges
// it (ids compared when the stream carries them), nothing of the turn sent
// on and no exit 0 when it refuses it.
func (cf caseFile) captured(f Format) (Case, error) {
	if got := wire.Detect(cf.stream); got.Name != f.Name {
		return Case{}, fmt.Errorf("%w %s: -- %s -- is a %s stream, the file says api %s", ErrCaseFile, cf.path, CapturedTurnFile, got.Name, f.Name)
	}
	c := Case{ID: cf.id, Tier: TierQuirk, Expect: ExpectSame, Doc: cf.doc, Source: cf.seen, File: cf.path, Captured: cf.stream}
	turn, err := f.Merge(bytes.NewReader(cf.stream))
	if err != nil {
		c.Expect, c.Delivered = ExpectBroken, DeliveredNone
		return c, nil
	}
	if len(turn.ToolCalls) == 0 {
		return Case{}, fmt.Errorf("%w %s: -- %s -- calls no tool: capture the turn with the calls", ErrCaseFile, cf.path, CapturedTurnFile)
	}
	for _, tc := range turn.ToolCalls {
		c.DropsIDs = c.DropsIDs || !bytes.Contains(cf.stream, []byte(tc.ID))
	}
	return c, nil
}

// override applies the file's expect to its case, which the quirks or
// the captured stream derived: broken demands that nothing of the turn is
// sent on and no exit 0 (no call delivered whole); benign demands the
// calls our merger makes of the turn, so a turn it refuses cannot be
// benign. The reason goes into the case's doc, where the reports show it.
func (cf caseFile) override(c Case) (Case, error) {
	switch {
	case cf.expect == "":
		return c, nil
	case cf.expect == "broken":
		if c.Expect != ExpectBroken && c.Expect != ExpectFirstOrBroken {
			c.Expect, c.Delivered, c.ToolTurnOnly = ExpectBroken, DeliveredNone, true
		}
	case c.Expect == ExpectBroken || c.Expect == ExpectFirstOrBroken:
		return Case{}, fmt.Errorf("%w %s:%d: expect benign: our merger refuses this turn, so there are no merged calls to demand", ErrCaseFile, cf.path, cf.expectLine)
	case c.Expect == ExpectBadArgs:
		return Case{}, fmt.Errorf("%w %s:%d: expect benign: the turn's first call carries arguments that are not JSON, which an agent answers with an error, not with the clean run's result", ErrCaseFile, cf.path, cf.expectLine)
	}
	c.Doc += " (expected " + cf.expect + ": " + cf.reason + ")"
	return c, nil
}
