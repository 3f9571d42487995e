package conform

import (
	"regexp"
	"strings"
)

// excerptLast is how many of the last lines of stderr an excerpt shows.
const excerptLast = 2

// errorWord finds a line that says it reports an error.
var errorWord = regexp.MustCompile(`(?i)\b(error|err|fatal|panic|exception|failed)\b`)

// stderrExcerpt is " (stderr: ...)" quoting the agent's stderr, or "": the
// first line that says error, then " … " and the last lines, each cut to
// 200 bytes. The last line alone ("]", "[object Object]") rarely names the
// cause, the first error line does (opencode's schema error, a
// Qwen Code warning on every first line).
func stderrExcerpt(stderr []byte) string {
	var lines []string
	for _, l := range strings.Split(string(stderr), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, cut200(l))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	last := lines[max(0, len(lines)-excerptLast):]
	first := -1
	for i, l := range lines {
		if errorWord.MatchString(l) {
			first = i
			break
		}
	}
	var b strings.Builder
	if first >= 0 && first < len(lines)-len(last) {
		b.WriteString(lines[first])
		if first < len(lines)-len(last)-1 {
			b.WriteString(" … ")
		} else {
			b.WriteString(" | ")
		}
	}
	b.WriteString(strings.Join(last, " | "))
	return " (stderr: " + b.String() + ")"
}

func cut200(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
