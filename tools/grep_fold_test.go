package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// blockHits searches data as one block, as a file's buffer is searched, with
// the given literals as prefilter (none: every line is matched).
func blockHits(re *regexp.Regexp, lits []literal, data []byte) []string {
	s := &searcher{re: re, lits: newLiteralFinder(lits)}
	var r fileResult
	s.block(data, "f", 1, 1<<30, &r)
	return r.hits
}

// FuzzGrepPrefilter: the literal prefilter never changes what a block search
// finds. Seeds hold the letters whose (?i) spellings differ in length (the
// Kelvin sign for k, the long s for s), bytes that are not UTF-8 (which a
// literal U+FFFD matches) and letters with a case outside ASCII.
func FuzzGrepPrefilter(f *testing.F) {
	seeds := []struct{ pattern, text string }{
		{`(?i)marshalcompressed`, "x MARSHALCOMPRESSED\nmarshalcompreſſed y\nMar\u017fhal\n"},
		{`(?i)kelvin`, "\u212aELVIN\nkelvin\nKELVIN\n"},
		{`(?i)sk1`, "\u017f\u212a1\nSK1\n"},
		{`(?i)xab`, "XAB\nxAb\nx\u0041b\n"},
		{`(?i)\x{e9}tude`, "\u00c9TUDE\n\u00e9tude\n"},
		{`ab\x{fffd}cd`, "ab\xffcd\nab\uFFFDcd\n"},
		{`(?i)ab\x{fffd}cde`, "AB\xffCDE\n"},
		{`(?i)foo|bar`, "FOO\nbAr\nbaz\n"},
		{`[A-Z]\w+Compressed[(]`, "MarshalCompressed(\r\nxCompressed(\n"},
		{`(?i)a\x{130}b`, "aib\nA\u0130B\n"},
		{`(?i)o\s*B`, "o \t b\nOB\r\n"},
	}
	for _, s := range seeds {
		f.Add(s.pattern, []byte(s.text))
	}
	f.Fuzz(func(t *testing.T, pattern string, text []byte) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		parsed, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			return
		}
		lits := requiredLiterals(parsed.Simplify())
		want := blockHits(re, nil, text)
		if diff := cmp.Diff(want, blockHits(re, lits, text)); diff != "" {
			t.Errorf("%q with literals %+v (-every line +prefiltered):\n%s", pattern, lits, diff)
		}
	})
}

// FuzzFoldIndex: foldIndex finds what lowering A-Z in both and searching
// finds.
func FuzzFoldIndex(f *testing.F) {
	f.Add([]byte("Compre"), []byte("xx COMPRESSED compre"))
	f.Add([]byte("a"), []byte("bbbA"))
	f.Add([]byte("a.b"), []byte("A.B a.b"))
	f.Add([]byte("zz"), []byte("z"))
	f.Fuzz(func(t *testing.T, needle, data []byte) {
		for i, c := range needle {
			needle[i] = lowerASCII(c)
		}
		lowered := make([]byte, len(data))
		for i, c := range data {
			lowered[i] = lowerASCII(c)
		}
		want := bytes.Index(lowered, needle)
		if got := foldIndex(data, needle, foldAnchor(needle)); got != want {
			t.Errorf("foldIndex(%q, %q) = %d, want %d", data, needle, got, want)
		}
	})
}
