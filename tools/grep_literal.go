package tools

import (
	"bytes"
	"regexp/syntax"
	"unicode"
)

// maxLiterals bounds the alternatives a prefilter looks for.
const maxLiterals = 16

// requiredLiterals returns strings one of which every match of the parsed
// pattern holds, or nil when it finds none: grep then looks for them with a
// fast substring search and runs the regular expression only on the lines
// that hold one. A case-folded literal, as (?i) makes, gives every way of
// writing the longest piece of it that has at most maxFoldVariants ways.
func requiredLiterals(re *syntax.Regexp) [][]byte {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		if re.Flags&syntax.FoldCase != 0 {
			return foldVariants(re.Rune)
		}
		return [][]byte{[]byte(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var best [][]byte
		for _, sub := range re.Sub {
			if lits := requiredLiterals(sub); lits != nil && betterLiterals(lits, best) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		var all [][]byte
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

// betterLiterals prefers the set whose shortest member is longest (fewer
// false candidates), then the smaller set.
func betterLiterals(a, b [][]byte) bool {
	if b == nil {
		return true
	}
	if sa, sb := shortest(a), shortest(b); sa != sb {
		return sa > sb
	}
	return len(a) < len(b)
}

func shortest(lits [][]byte) int {
	n := len(lits[0])
	for _, l := range lits[1:] {
		n = min(n, len(l))
	}
	return n
}

// literalFinder finds the next occurrence of any of its literals in one
// buffer, remembering each literal's next occurrence so that a rare literal
// is not searched for again at every candidate of a common one.
type literalFinder struct {
	lits [][]byte
	next []int // absolute index of each literal's next occurrence; -1 none left
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
		if i := bytes.Index(data[pos:], lf.lits[0]); i >= 0 {
			return pos + i
		}
		return -1
	}
	best := -1
	for k, lit := range lf.lits {
		n := lf.next[k]
		if n == -2 || (n >= 0 && n < pos) {
			n = bytes.Index(data[pos:], lit)
			if n >= 0 {
				n += pos
			}
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
func foldVariants(rs []rune) [][]byte {
	from, to := 0, 0
	for i := range rs {
		n := 1
		for j := i; j < len(rs); j++ {
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
	out := make([][]byte, len(variants))
	for i, v := range variants {
		out[i] = []byte(v)
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
