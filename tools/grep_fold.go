package tools

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// A fold needle is a literal searched for without regard to ASCII case: the
// piece of a (?i) literal whose every rune is either an ASCII letter whose
// only other spelling under Unicode simple folding is its other ASCII case,
// or a rune no other rune folds to. Under RE2's (?i) such a piece matches
// exactly the byte strings that equal it once A-Z are lowered, so an ASCII
// case-insensitive byte scan for it never misses a match. Letters with a
// third spelling (k and the Kelvin sign U+212A, s and the long s U+017F) and
// non-ASCII letters with a case end the piece instead: their spellings have
// other lengths in UTF-8.

// foldNeedle returns the longest such piece of rs, lowered, or nil.
func foldNeedle(rs []rune) []byte {
	from, to, start := 0, 0, 0
	for i, r := range rs {
		if !asciiFoldable(r) {
			start = i + 1
			continue
		}
		if i+1-start > to-from {
			from, to = start, i+1
		}
	}
	if to == from {
		return nil
	}
	needle := []byte(string(rs[from:to]))
	for i, c := range needle {
		needle[i] = lowerASCII(c)
	}
	return needle
}

// asciiFoldable reports whether r's spellings under simple folding are r
// alone, or an ASCII letter and its other case.
func asciiFoldable(r rune) bool {
	orbit := foldOrbit(r)
	switch len(orbit) {
	case 1:
		return r != utf8.RuneError
	case 2:
		return orbit[0] < utf8.RuneSelf && orbit[1] < utf8.RuneSelf && unicode.IsLetter(r)
	}
	return false
}

// lowerASCII lowers A-Z and leaves every other byte alone.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldAnchor picks the byte of a lowered needle to scan for: the one least
// common in source text, by codeByteRank.
func foldAnchor(needle []byte) int {
	best := 0
	for i, c := range needle {
		if codeByteRank(c) > codeByteRank(needle[best]) {
			best = i
		}
	}
	return best
}

// commonCodeBytes lists the bytes most common in source code, most common
// first (measured roughly on Go's source tree); a byte not listed is rarer
// than all of them.
const commonCodeBytes = " \te\nt\x2frisnoa.lc(d)\"upf,m*g_=yhb:{}xvkw0-1SEwCTRIA"

// codeByteRank is higher for rarer bytes; letters count both cases.
func codeByteRank(c byte) int {
	if i := bytes.IndexByte([]byte(commonCodeBytes), c); i >= 0 {
		return i
	}
	return len(commonCodeBytes)
}

// foldIndex returns the index of the first occurrence of the lowered needle
// in data, ASCII case ignored, or -1. anchor is foldAnchor(needle): the scan
// looks for that byte in both cases with bytes.IndexByte (remembering where
// each case occurs next) and compares the rest only there.
func foldIndex(data, needle []byte, anchor int) int {
	m := len(needle)
	if m == 0 {
		return 0
	}
	lo := needle[anchor]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	// Candidates for the anchor lie in data[anchor : len(data)-(m-1-anchor)].
	hay := data[:max(0, len(data)-(m-1-anchor))]
	nextLo, nextUp := -2, -2
	if lo == up {
		nextUp = -1
	}
	for pos := anchor; pos < len(hay); {
		if nextLo != -1 && nextLo < pos {
			nextLo = indexFrom(hay, lo, pos)
		}
		if nextUp != -1 && nextUp < pos {
			nextUp = indexFrom(hay, up, pos)
		}
		at := nextLo
		if at < 0 || (nextUp >= 0 && nextUp < at) {
			at = nextUp
		}
		if at < 0 {
			return -1
		}
		if start := at - anchor; equalFoldASCII(data[start:start+m], needle) {
			return start
		}
		pos = at + 1
	}
	return -1
}

// indexFrom returns the index of the first c in data at or after pos, or -1.
func indexFrom(data []byte, c byte, pos int) int {
	if i := bytes.IndexByte(data[pos:], c); i >= 0 {
		return pos + i
	}
	return -1
}

// equalFoldASCII reports whether s equals the lowered needle once A-Z in s
// are lowered.
func equalFoldASCII(s, needle []byte) bool {
	for i, c := range needle {
		if lowerASCII(s[i]) != c {
			return false
		}
	}
	return true
}
