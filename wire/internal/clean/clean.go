// Package clean holds what the wire formats' clean stream writers share: the
// piece sizes, the fixed "created" stamp and the rune splitter, so that every
// format's scripted stream cuts text and arguments the same way and the same
// input always gives the same bytes.
package clean

// Piece sizes of a clean stream, in runes. One call's arguments arrive in
// several pieces, as from a real gateway; the quirk transforms make it worse.
const (
	TextRunes = 8
	ArgsRunes = 6
)

// Created is the fixed "created" stamp of every written stream, so that
// recordings are the same bytes on every run.
const Created = 1767225600

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
