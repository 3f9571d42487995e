package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// visible makes text safe to print on a terminal: every control character
// that could move the cursor, change colours, set the window title, ring the
// bell or reorder the line is shown escaped instead of sent raw. Escaped are
// the C0 controls but newline and tab (ESC shows as \x1b, CR as \r), DEL,
// the C1 controls U+0080..U+009F (U+009B, a one-character CSI, shows as
// \u009b), the bidirectional overrides and isolates U+202A..U+202E and
// U+2066..U+2069, and bytes that are not UTF-8 (\xff). A CRLF counts as one
// newline. Workspace files and the model's text reach the cards through it,
// so neither can forge terminal output.
func visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isC1OrBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isC1OrBidi(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// needsEscape reports whether visible would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isC1OrBidi(r) {
			return true
		}
		i += size
	}
	return false
}
