package conform

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// visible is text from the agent made safe for a terminal, escaped as the
// CLI's cards escape it: a C0 control but tab (ESC as \x1b, BEL as \x07,
// CR as \r, a newline as \n: a table cell is one line), DEL, a byte that
// is not UTF-8 (\xff), a C1 control U+0080..U+009F (U+009B, a one-rune
// CSI, as \u009b) and the bidirectional overrides and isolates
// U+202A..U+202E and U+2066..U+2069. The agent's stderr is quoted in the
// details, the tool names it offers too: neither can move the cursor,
// recolour the table, set the window title or ring the bell.
func visible(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\t':
			b.WriteByte('\t')
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}
