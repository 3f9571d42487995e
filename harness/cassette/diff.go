package cassette

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// A miss's diff is bounded where it is printed (the error's text, a 404
// body, a log line): one near miss with an extra 8 MiB member once wrote
// 9.3 MB to stderr.
const (
	// MaxDiffLines bounds the lines of a MissError's Diff.
	MaxDiffLines = 40
	// MaxDiffLineBytes bounds each line of the requests a Diff compares.
	MaxDiffLineBytes = 200
)

// SetNearest makes the recorded interaction at index near (0-based) the
// miss's nearest: Nearest, the summary Diff and what WholeDiff compares.
func (e *MissError) SetNearest(near int, recorded, sent RequestKey) {
	e.Nearest = near + 1
	e.recorded, e.sent = recorded, sent
	e.Diff = summaryDiff(recorded, sent)
}

// WholeDiff is cmp.Diff(recorded, sent) of the two requests uncut, for a
// journal; "" without a nearest interaction. It costs as much as the two
// bodies are long.
func (e *MissError) WholeDiff() string {
	if e.Nearest == 0 {
		return ""
	}
	return cmp.Diff(e.recorded.Text(), e.sent.Text())
}

// summaryDiff diffs the two requests with each line cut, then cuts the
// diff after MaxDiffLines lines, saying how many more there were.
func summaryDiff(recorded, sent RequestKey) string {
	d := cmp.Diff(cutLines(recorded.Text()), cutLines(sent.Text()))
	lines := strings.SplitAfter(d, "\n")
	if len(lines) <= MaxDiffLines {
		return d
	}
	more := len(lines) - MaxDiffLines
	if lines[len(lines)-1] == "" {
		more--
	}
	return strings.Join(lines[:MaxDiffLines], "") + fmt.Sprintf("… %d more lines of diff\n", more)
}

// cutLines cuts every line of text over MaxDiffLineBytes, ending it with
// its length and the start of its SHA-256.
func cutLines(text string) string {
	if len(text) <= MaxDiffLineBytes {
		return text
	}
	var b strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if len(line) <= MaxDiffLineBytes {
			b.WriteString(line)
			continue
		}
		cut := MaxDiffLineBytes
		for cut > 0 && !utf8Start(line[cut]) {
			cut--
		}
		sum := sha256.Sum256([]byte(line))
		fmt.Fprintf(&b, "%s… (%d bytes, sha256 %x)", line[:cut], len(line), sum[:6])
	}
	return b.String()
}

// utf8Start reports whether c begins a UTF-8 sequence (or is ASCII).
func utf8Start(c byte) bool { return c&0xC0 != 0x80 }
