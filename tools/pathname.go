package tools

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// showPath is how a root-relative path is written in a result. A path is
// written as it is unless one line of output could not carry it unambiguously:
// when it holds a colon (grep's separator), a rune strconv does not count as
// printable (line breaks, tabs, ESC and the other C0 and C1 controls, U+2028),
// bytes that are not UTF-8, or starts with a double quote. Such a path is
// written as a Go quoted string: "x.js\nevil.js:99:FORGED" stays one entry and
// one hit, and a byte that is not UTF-8 is written \xff, which readPath turns
// back into the byte, so every listed file can be read.
func showPath(p string) string {
	if strings.HasPrefix(p, `"`) || strings.ContainsRune(p, ':') || !utf8.ValidString(p) {
		return strconv.Quote(p)
	}
	for _, r := range p {
		if !strconv.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return p
}

// readPath undoes showPath: a path given in double quotes that unquotes as a
// Go string names the file it was written for; any other path is used as
// given.
func readPath(p string) string {
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		if s, err := strconv.Unquote(p); err == nil {
			return s
		}
	}
	return p
}
