package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// grep limits.
const (
	grepLineBytes = 1 << 20 // bytes of one line searched; the rest is skipped
)

type grepArgs struct {
	Pattern string `json:"pattern"`
	Glob    string `json:"glob"`
}

// grepTool searches file contents. Its description and parameter
// descriptions are grepDesc, grepPatternDesc and grepGlobDesc in
// texts_zh.go / texts_en.go.
func grepTool(lang Lang) Tool {
	t := lang.texts()
	return Tool{
		Name:        "grep",
		Description: fmt.Sprintf(t.grepDescF, grepMaxHits, grepLineChars),
		Parameters: objectSchema([]string{"pattern"},
			param{"pattern", "string", t.grepPatternDesc, `"minLength":1`},
			param{"glob", "string", t.grepGlobDesc, `"minLength":1`},
		),
		ReadOnly: true,
		Run: func(ctx context.Context, ws *Workspace, raw json.RawMessage) (string, error) {
			var a grepArgs
			if err := json.Unmarshal(raw, &a); err != nil {
				return "", err
			}
			return grepper{}.run(ctx, ws, t, a)
		},
	}
}

// grepper runs one search. onOpen, when set, sees every file opened (tests
// use it to prove the search stops at the hit limit).
type grepper struct {
	onOpen func(rel string)
}

// perlOnly finds what models copy from PCRE and RE2 refuses: lookahead,
// lookbehind and backreferences.
var perlOnly = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]`)

// run returns "path:line:content" hits in path order, then line order; at
// most grepMaxHits, and a note when more exist. Scanning stops at the first
// hit past the limit.
func (g grepper) run(ctx context.Context, ws *Workspace, t *catalog, a grepArgs) (string, error) {
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		reason := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			reason = fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
		}
		if perlOnly.MatchString(a.Pattern) {
			reason += t.perlOnlyHint
		}
		return "", failf(err, t.badRegexpF, a.Pattern, reason)
	}
	filter := globPattern{dir: ".", parts: []string{"**"}}
	if a.Glob != "" {
		if filter, err = compileGlob(ws, t, a.Glob); err != nil {
			return "", err
		}
	}
	root, err := os.OpenRoot(ws.Root())
	if err != nil {
		return "", err
	}
	defer root.Close()

	s := &search{re: re, br: bufio.NewReaderSize(nil, readBufSize)}
	if lit, _ := re.LiteralPrefix(); lit != "" {
		s.literal = []byte(lit)
	}
	s.lines.keep = grepLineBytes
	defer s.close()
	err = walkFiles(ctx, root.FS(), filter.dir, func(dir string) bool { return filter.mayContain(filter.rel(dir)) },
		func(p string) error {
			if !filter.match(filter.rel(p)) {
				return nil
			}
			if g.onOpen != nil {
				g.onOpen(p)
			}
			return s.file(root, p)
		})
	if err != nil {
		return "", err
	}
	switch {
	case len(s.hits) == 0 && a.Glob != "":
		return fmt.Sprintf(t.grepNoneGlobF, a.Pattern, s.searched, a.Glob), nil
	case len(s.hits) == 0:
		return fmt.Sprintf(t.grepNoneF, a.Pattern, s.searched), nil
	}
	out := strings.Join(s.hits, "\n")
	if s.more {
		out += "\n" + fmt.Sprintf(t.grepMoreF, grepMaxHits)
	}
	return out, nil
}

// search is the state of one grep across files.
type search struct {
	re       *regexp.Regexp
	literal  []byte // every match starts with it; lines without it are skipped
	br       *bufio.Reader
	lines    lineReader
	hits     []string
	more     bool
	searched int

	// dir is the folder of the last file opened, as a root of its own: the
	// walk hands out a folder's files one after another, and opening each
	// by its bare name costs one openat instead of one per path element.
	dir     *os.Root
	dirName string
}

// open opens rel (a regular file the walk found) through the root of its
// folder, opened once per folder.
func (s *search) open(root *os.Root, rel string) (*os.File, error) {
	if name := path.Dir(rel); s.dir == nil || name != s.dirName {
		s.close()
		d, err := root.OpenRoot(name)
		if err != nil {
			return nil, err
		}
		s.dir, s.dirName = d, name
	}
	return s.dir.OpenFile(path.Base(rel), openFlags, 0)
}

// close releases the folder root open gets files through.
func (s *search) close() {
	if s.dir != nil {
		s.dir.Close()
		s.dir = nil
	}
}

// file searches one file; it returns errStopWalk once a hit past the limit
// is found. Files that cannot be opened and binary files are skipped.
func (s *search) file(root *os.Root, rel string) error {
	f, err := s.open(root, rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	s.br.Reset(f)
	if isBinary(s.br) {
		return nil
	}
	s.searched++
	s.lines.br = s.br
	for n := 1; ; n++ {
		line, _, ok, err := s.lines.next(true)
		if err != nil || !ok {
			return nil
		}
		if s.literal != nil && !bytes.Contains(line, s.literal) {
			continue
		}
		loc := s.re.FindIndex(line)
		if loc == nil {
			continue
		}
		if len(s.hits) == grepMaxHits {
			s.more = true
			return errStopWalk
		}
		s.hits = append(s.hits, showPath(rel)+":"+strconv.Itoa(n)+":"+around(line, loc[0], loc[1], grepLineChars))
	}
}

// around returns line as valid UTF-8, cut to limit runes around the match at
// bytes [start,end): the window is centred on the match, and a cut side
// shows "…" within the limit.
func around(line []byte, start, end, limit int) string {
	before := []rune(strings.ToValidUTF8(string(line[:start]), "\uFFFD"))
	match := []rune(strings.ToValidUTF8(string(line[start:end]), "\uFFFD"))
	after := []rune(strings.ToValidUTF8(string(line[end:]), "\uFFFD"))
	all := append(append(before, match...), after...)
	if len(all) <= limit {
		return string(all)
	}
	m := min(len(match), limit-2) // room for "…" on both sides
	from := max(0, min(len(before)-(limit-m)/2, len(all)-limit))
	window := append([]rune(nil), all[from:from+limit]...)
	if from > 0 {
		window[0] = '…'
	}
	if from+limit < len(all) {
		window[len(window)-1] = '…'
	}
	return string(window)
}
