package conform

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// ErrBadBaseline is returned for a baseline file conform cannot use.
var ErrBadBaseline = errors.New("bad baseline")

// A Baseline lists the cases an agent is known to fail. A failure listed is
// expected; one not listed fails the run; a listed case that passes is
// stale and fails the run too, so a baseline only ever shrinks.
type Baseline map[string]bool

// ReadBaseline reads a baseline file: one case id per line, '#' starts a
// comment, blank lines are ignored. Every id must be one of known.
func ReadBaseline(path string, known []Case) (Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w: give -baseline a file of case ids, one per line (an empty file is a valid baseline)", ErrBadBaseline, err)
	}
	return ParseBaseline(path, data, known)
}

// ParseBaseline reads a baseline's bytes (name is used in errors).
func ParseBaseline(name string, data []byte, known []Case) (Baseline, error) {
	var ids []string
	for _, c := range known {
		ids = append(ids, c.ID)
	}
	b := Baseline{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.ContainsAny(line, " \t,:"):
			return nil, fmt.Errorf("%w: %s line %d: %q: write one case id per line, with an optional '# reason' after it", ErrBadBaseline, name, n, line)
		case !slices.Contains(ids, line):
			return nil, fmt.Errorf("%w: %s line %d: %q is no case: remove it, or pick one of %s", ErrBadBaseline, name, n, line, strings.Join(ids, ", "))
		case b[line]:
			return nil, fmt.Errorf("%w: %s line %d: %q is listed twice: remove one", ErrBadBaseline, name, n, line)
		}
		b[line] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadBaseline, name, err)
	}
	return b, nil
}

// Judge marks the expected failures of results and returns the failures the
// baseline does not list and the baseline entries whose case now passes.
// A skipped case is neither.
func (b Baseline) Judge(results []Result) (unexpected []Result, stale []string) {
	for i := range results {
		r := &results[i]
		listed := b[r.Case.ID]
		switch {
		case r.Status == Failure && listed:
			r.Expected = true
		case r.Status == Failure && r.OtherProvider != "":
			// reported apart: another provider's echo case
		case r.Status == Failure:
			unexpected = append(unexpected, *r)
		case listed && r.Status != Skipped:
			stale = append(stale, r.Case.ID)
		}
	}
	return unexpected, stale
}
