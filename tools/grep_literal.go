package tools

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// maxLiterals bounds the alternatives a prefilter looks for.
const maxLiterals = 16

// literal is a byte string a prefilter looks for: as is, or, with fold set,
// lowered and with ASCII case ignored (see foldNeedle).
type literal struct {
	text []byte
	fold bool
}

// requiredLiterals returns literals one of which every match of the parsed
// pattern holds, or nil when it finds none: grep then looks for them with a
// fast substring search and runs the regular expression only on the lines
// that hold one. A case-folded literal, as (?i) makes, gives its longest
// piece an ASCII case-insensitive scan finds exactly (foldNeedle), or every
// way of writing the longest piece of it that has at most maxFoldVariants
// ways, whichever filters better. A literal U+FFFD also matches a byte that
// is not UTF-8, so no piece holds one.
func requiredLiterals(re *syntax.Regexp) []literal {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		if re.Flags&syntax.FoldCase != 0 {
			lits := foldVariants(re.Rune)
			if n := foldNeedle(re.Rune); n != nil {
				if one := []literal{{text: n, fold: true}}; betterLiterals(one, lits) {
					lits = one
				}
			}
			return lits
		}
		if piece := longestValid(re.Rune); len(piece) > 0 {
			return []literal{{text: []byte(string(piece))}}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []literal
		for _, sub := range re.Sub {
			if lits := requiredLiterals(sub); lits != nil && betterLiterals(lits, best) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		var all []literal
		for _, sub := range re.Sub {
			lits := requiredLiterals(sub)
			if lits == nil {
				return nil // a branch without one can match anywhere
			}
			all = append(all, lits...)
		}
		if len(all) > maxLiterals {
			return nil
		}
		return all
	}
	return nil
}

// longestValid returns the longest run of rs without U+FFFD.
func longestValid(rs []rune) []rune {
	var best []rune
	for _, run := range splitRunes(rs, func(r rune) bool { return r == utf8.RuneError }) {
		if len(run) > len(best) {
			best = run
		}
	}
	return best
}

// splitRunes cuts rs at every rune cut reports, dropping those runes.
func splitRunes(rs []rune, cut func(rune) bool) [][]rune {
	var runs [][]rune
	start := 0
	for i, r := range rs {
		if cut(r) {
			runs = append(runs, rs[start:i])
			start = i + 1
		}
	}
	return append(runs, rs[start:])
}

// betterLiterals prefers the set whose shortest member is longest (fewer
// false candidates), then the smaller set.
func betterLiterals(a, b []literal) bool {
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

func shortest(lits []literal) int {
	n := len(lits[0].text)
	for _, l := range lits[1:] {
		n = min(n, len(l.text))
	}
	return n
}

// literalFinder finds the next occurrence of any of its literals in one
// buffer, remembering each literal's next occurrence so that a rare literal
// is not searched for again at every candidate of a common one.
type literalFinder struct {
	lits    []literal
	anchors []int // foldAnchor of each fold literal
	next    []int // absolute index of each literal's next occurrence; -1 none left
}

func newLiteralFinder(lits []literal) literalFinder {
	lf := literalFinder{lits: lits, anchors: make([]int, len(lits))}
	for k, l := range lits {
		if l.fold {
			lf.anchors[k] = foldAnchor(l.text)
		}
	}
	return lf
}

// index returns the index of literal k in data at or after pos, or -1.
func (lf *literalFinder) index(k int, data []byte, pos int) int {
	var i int
	if l := lf.lits[k]; l.fold {
		i = foldIndex(data[pos:], l.text, lf.anchors[k])
	} else {
		i = bytes.Index(data[pos:], l.text)
	}
	if i < 0 {
		return -1
	}
	return pos + i
}

func (lf *literalFinder) reset() {
	lf.next = lf.next[:0]
	for range lf.lits {
		lf.next = append(lf.next, -2) // not searched yet
	}
}

// find returns the smallest index at or after pos where one of the literals
// starts in data, or -1.
func (lf *literalFinder) find(data []byte, pos int) int {
	if len(lf.lits) == 1 {
		return lf.index(0, data, pos)
	}
	best := -1
	for k := range lf.lits {
		n := lf.next[k]
		if n == -2 || (n >= 0 && n < pos) {
			n = lf.index(k, data, pos)
			lf.next[k] = n
		}
		if n >= 0 && (best < 0 || n < best) {
			best = n
		}
	}
	return best
}

// maxFoldVariants bounds the spellings a case-folded piece is searched as.
const maxFoldVariants = 8

// foldVariants returns every spelling, under Unicode simple case folding
// (RE2's (?i): k, K and the Kelvin sign are one letter), of the longest run
// of rs that has at most maxFoldVariants of them.
func foldVariants(rs []rune) []literal {
	from, to := 0, 0
	for i := range rs {
		n := 1
		for j := i; j < len(rs) && rs[j] != utf8.RuneError; j++ {
			if n *= len(foldOrbit(rs[j])); n > maxFoldVariants {
				break
			}
			if j+1-i > to-from {
				from, to = i, j+1
			}
		}
	}
	if to == from {
		return nil
	}
	variants := []string{""}
	for _, r := range rs[from:to] {
		var next []string
		for _, v := range variants {
			for _, f := range foldOrbit(r) {
				next = append(next, v+string(f))
			}
		}
		variants = next
	}
	out := make([]literal, len(variants))
	for i, v := range variants {
		out[i] = literal{text: []byte(v)}
	}
	return out
}

// foldOrbit returns r and every rune that folds to the same letter.
func foldOrbit(r rune) []rune {
	orbit := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		orbit = append(orbit, f)
	}
	return orbit
}
