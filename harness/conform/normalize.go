package conform

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The metamorphic rules (results.go, printed.go) compare what an agent did
// in a case with what it did on the clean stream, in the same folder, with
// the same tools. What legitimately differs between two runs of one agent
// is replaced by a placeholder before the comparison, in this order:
//
//   - the ids of the request's calls, which each run or stream makes anew:
//     "<id>";
//   - the folder the agent runs in, as given and through its symlinks:
//     "<folder>";
//   - any other path under the system's temporary folder: its first element
//     (a per-run name, such as an agent's own scratch folder): "<tmp>";
//   - date-times as RFC 3339 and ISO 8601 write them: "<time>";
//   - durations written with a unit under a second (12ms, 3.5µs, 80ns) or
//     with a fraction of seconds (1.25s): "<duration>";
//   - a non-ASCII character written as a JSON escape (\u6570, as a call's
//     arguments may be re-encoded by the stream's shape): the character;
//   - CRLF line ends (LF), and spaces at the end of a line.
//
// Nothing else is forgiven: a tool result that differs in any other way
// came from another call, or from none.

var (
	dateTimeRe = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?`)
	durationRe = regexp.MustCompile(`\b\d+(\.\d+)?\s?(ms|µs|us|ns)\b|\b\d+\.\d+\s?s\b`)
	trailingRe = regexp.MustCompile(`[ \t]+\n`)
	escapeRe   = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)
)

// normaliser replaces what varies between runs of one agent (above).
type normaliser struct {
	folders []string // the agent's folder, as given and resolved
	tmp     *regexp.Regexp
}

func newNormaliser(dir string) normaliser {
	var n normaliser
	for _, d := range []string{dir, resolved(dir)} {
		if d != "" && d != "/" && !slices.Contains(n.folders, d) {
			n.folders = append(n.folders, d)
		}
	}
	// the longest first, so that a resolved path is not cut by the one given
	if len(n.folders) == 2 && len(n.folders[1]) > len(n.folders[0]) {
		n.folders[0], n.folders[1] = n.folders[1], n.folders[0]
	}
	var tmps []string
	for _, t := range []string{os.TempDir(), resolved(os.TempDir())} {
		if t = strings.TrimSuffix(t, "/"); t != "" && !slices.Contains(tmps, regexp.QuoteMeta(t)) {
			tmps = append(tmps, regexp.QuoteMeta(t))
		}
	}
	if len(tmps) > 0 {
		n.tmp = regexp.MustCompile(`(` + strings.Join(tmps, "|") + `)/[^/\s"'` + "`" + `:,;)\]}]+`)
	}
	return n
}

// text is s with what varies replaced; ids are the request's call ids.
func (n normaliser) text(s string, ids []string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, id := range ids {
		if len(id) >= 4 { // a short id ("1") would match ordinary text
			s = strings.ReplaceAll(s, id, "<id>")
		}
	}
	for _, f := range n.folders {
		s = strings.ReplaceAll(s, f, "<folder>")
	}
	if n.tmp != nil {
		s = n.tmp.ReplaceAllString(s, "<tmp>")
	}
	s = dateTimeRe.ReplaceAllString(s, "<time>")
	s = durationRe.ReplaceAllString(s, "<duration>")
	s = escapeRe.ReplaceAllStringFunc(s, unescapeNonASCII)
	return trailingRe.ReplaceAllString(s, "\n")
}

// resolved is path through its symlinks, or "" when it does not resolve.
func resolved(path string) string {
	if path == "" {
		return ""
	}
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	return r
}

// unescapeNonASCII is the character a \uXXXX escape writes, when it is
// neither ASCII (an escaped quote or control stays as written) nor half
// of a surrogate pair; else the escape as it was.
func unescapeNonASCII(esc string) string {
	r, err := strconv.ParseUint(esc[2:], 16, 32)
	if err != nil || r < 0x80 || (r >= 0xd800 && r < 0xe000) {
		return esc
	}
	return string(rune(r))
}
