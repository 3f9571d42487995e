package tools

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// randomTree writes files of random lines built from a few words, line ends
// (LF, CRLF, a bare CR) and now and then a NUL, so that literals, anchors
// and \s meet every kind of line end.
func randomTree(t *testing.T, seed uint64, files int) *Workspace {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	words := []string{"foo", "bar", "Baz(", "FOO", " ", "\t", "x", "QuxBaz(", "\r", "b", "r", "fo", "o"}
	m := map[string]string{}
	for i := range files {
		var b strings.Builder
		for range rng.IntN(40) {
			for range rng.IntN(8) {
				b.WriteString(words[rng.IntN(len(words))])
			}
			switch rng.IntN(4) {
			case 0:
				b.WriteString("\r\n")
			default:
				b.WriteString("\n")
			}
		}
		if rng.IntN(10) == 0 {
			b.WriteString("\x00")
		}
		if rng.IntN(3) == 0 {
			b.WriteString("foo bar") // no final newline
		}
		m[fmt.Sprintf("d%d/f%02d.txt", i%5, i)] = b.String()
	}
	ws, _ := newWorkspace(t, m)
	return ws
}

// refFile is one text file of a tree as the reference search reads it:
// its path and its lines, each its first grepLineBytes with a trailing "\r"
// removed.
type refFile struct {
	path  string
	lines [][]byte
}

// readTexts reads a tree for lineByLine, once for all the patterns: each
// text file (no NUL in its first 8000 bytes) in path order, split at "\n".
func readTexts(t *testing.T, root string) []refFile {
	var paths []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(paths)
	var files []refFile
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
			continue
		}
		lines := bytes.Split(data, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for i, line := range lines {
			line = line[:min(len(line), grepLineBytes)]
			lines[i] = bytes.TrimSuffix(line, []byte("\r"))
		}
		files = append(files, refFile{p, lines})
	}
	return files
}

// lineByLine is the reference search: every line of the text files matched
// on its own; searched is how many files it read.
func lineByLine(files []refFile, pattern string) (hits []string, searched int) {
	re := regexp.MustCompile(pattern)
	for _, f := range files {
		for i, line := range f.lines {
			if loc := re.FindIndex(line); loc != nil {
				hits = append(hits, f.path+":"+strconv.Itoa(i+1)+":"+around(line, loc[0], loc[1], grepLineChars))
			}
		}
	}
	return hits, len(files)
}

// TestGrepSameAsLineByLine: the block search with its literal prefilter
// finds exactly what matching every line on its own finds, with 1 worker and
// with 8 (the output does not depend on the number of workers).
func TestGrepSameAsLineByLine(t *testing.T) {
	patterns := []string{
		`foo`, `foo|bar`, `[A-Z]\w+Baz[(]`, `(?i)foo`, `^foo`, `foo$`, `b.r`, `\bfoo\b`,
		`o\s+b`, `x*`, `^$`, `(fo)+o`, `o{2}`, `(?:Baz|bar)\(`, `\s$`, `foo bar\z`, `\Ab`, `(?i)quxbaz\(`, `(?i)o\s*B`,
	}
	for seed := range uint64(4) {
		ws := randomTree(t, seed, 60)
		texts := readTexts(t, ws.Root())
		for _, pattern := range patterns {
			hits, searched := lineByLine(texts, pattern)
			want := strings.Join(hits, "\n")
			switch {
			case len(hits) > grepMaxHits:
				want = strings.Join(hits[:grepMaxHits], "\n") + "\n" + fmt.Sprintf(enTexts.grepMoreF, grepMaxHits)
			case len(hits) == 0:
				want = fmt.Sprintf(enTexts.grepNoneF, pattern, searched)
			}
			for _, workers := range []int{1, 8} {
				got, err := grepper{workers: workers}.run(context.Background(), ws, EN.texts(), grepArgs{Pattern: pattern})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("seed %d, %q, %d workers (-line by line +grep):\n%s", seed, pattern, workers, diff)
				}
			}
		}
	}
}

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		reason, pattern string
		want            []string
	}{
		{"a plain literal", `MarshalCompressed`, []string{"MarshalCompressed"}},
		{"the literal in the middle", `[A-Z]\w+Compressed[(]`, []string{"Compressed("}},
		{"the longest of a concatenation", `ab.*cdef`, []string{"cdef"}},
		{"one per branch", `foo|bar`, []string{"bar", "foo"}},
		{"a branch without one gives none", `foo|\w+`, nil},
		{"case folding gives one piece scanned without regard to ASCII case", `(?i)Foo`, []string{"(?i)foo"}},
		{"k and s end the piece (the Kelvin sign, the long s)", `(?i)marshalcompressed`, []string{"(?i)halcompre"}},
		{"so do letters with a case outside ASCII", `(?i)x\x{e9}ab-cd`, []string{"(?i)ab-cd"}},
		{"runes no other rune folds to stay in it", `(?i)a\x{2192}b`, []string{"(?i)a\u2192b"}},
		{"every spelling of a piece when that filters better", `(?i)k1`, []string{"K1", "k1", "\u212a1"}},
		{"U+FFFD also matches a byte that is not UTF-8", `ab\x{fffd}cde`, []string{"cde"}},
		{"so does it under (?i)", `(?i)ab\x{fffd}cde`, []string{"(?i)cde"}},
		{"a star can be absent", `(abc)*d`, []string{"d"}},
		{"a plus cannot", `(abc)+`, []string{"abc"}},
		{"nothing required", `\w+`, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, l := range requiredLiterals(mustParse(t, tt.pattern)) {
			if l.fold {
				got = append(got, "(?i)"+string(l.text))
			} else {
				got = append(got, string(l.text))
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: %q (-want +got):\n%s", tt.reason, tt.pattern, diff)
		}
	}
}

func mustParse(t *testing.T, pattern string) *syntax.Regexp {
	t.Helper()
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return re.Simplify()
}

// TestGrepLongLinesSameAsLineByLine: lines longer than what grep searches of
// a line (grepLineBytes) and than its buffer are searched on their first
// grepLineBytes only, and the lines after them keep their numbers.
func TestGrepLongLinesSameAsLineByLine(t *testing.T) {
	ws, _ := newWorkspace(t, map[string]string{
		"a.txt": strings.Repeat("a", 512<<10) + "foo" + strings.Repeat("a", 2<<20) + "foo\nfoo 2\n",
		"b.txt": strings.Repeat("b", grepLineBytes-2) + "foo\nfoo\n",
		"c.txt": strings.Repeat("c", 3<<20) + "\r\nfoo\n",
		"d.txt": strings.Repeat("d", grepBufSize) + "\nfoo\n",
		"e.txt": strings.Repeat("e", grepBufSize-1) + "\nfoo\n" + strings.Repeat("f", grepBufSize+1) + "foo",
	})
	texts := readTexts(t, ws.Root())
	for _, pattern := range []string{`foo`, `fo+`, `o\s*$`, `^[a-f]+$`, `\r`} {
		hits, searched := lineByLine(texts, pattern)
		want := strings.Join(hits, "\n")
		if len(hits) == 0 {
			want = fmt.Sprintf(enTexts.grepNoneF, pattern, searched)
		}
		for _, workers := range []int{1, 8} {
			got, err := grepper{workers: workers}.run(context.Background(), ws, EN.texts(), grepArgs{Pattern: pattern})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%q, %d workers (-line by line +grep):\n%s", pattern, workers, diff)
			}
		}
	}
}
