package tools

import (
	"fmt"
	"unicode/utf8"
)

const (
	headChars = MaxResultChars * 6 / 10 // 4800 runes kept from the start
	tailChars = MaxResultChars - headChars
)

// Truncate is the one truncation for every tool result. A text of at most
// MaxResultChars runes comes back unchanged. A longer one keeps its first 4800
// and last 3200 runes with a note between them that says how many runes were
// removed and how long the whole was. Cuts fall on rune boundaries. Meta
// reports the rune count before truncation whether or not it cut.
func Truncate(s string, lang Lang) (string, Meta) {
	n := utf8.RuneCountInString(s)
	if n <= MaxResultChars {
		return s, Meta{OriginalChars: n}
	}
	head := byteOffset(s, headChars)
	tail := byteOffset(s, n-tailChars)
	note := fmt.Sprintf(lang.texts().truncNoteF, n-MaxResultChars, n)
	return s[:head] + note + s[tail:], Meta{Truncated: true, OriginalChars: n}
}

// byteOffset returns the byte offset of the rune with index i in s, counting
// runes the way utf8.RuneCountInString does.
func byteOffset(s string, i int) int {
	off := 0
	for ; i > 0 && off < len(s); i-- {
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off
}
