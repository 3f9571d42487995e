// Package piece cuts the text of a clean stream into the pieces a real
// gateway sends: every format's stream writer (package wire's) and the quirk
// transforms that re-split arguments use the same sizes, so that the same
// input always gives the same bytes.
package piece

// Sizes of a clean stream's pieces, in runes. One call's arguments arrive in
// several pieces, as from a real gateway; the quirk transforms make it worse.
const (
	TextRunes = 8
	ArgsRunes = 6
)

// Split cuts s into pieces of at most n runes, never inside a UTF-8
// sequence. An empty s gives no pieces.
func Split(s string, n int) []string {
	var pieces []string
	count, start := 0, 0
	for i := range s {
		if count == n {
			pieces = append(pieces, s[start:i])
			start, count = i, 0
		}
		count++
	}
	if start < len(s) {
		pieces = append(pieces, s[start:])
	}
	return pieces
}
