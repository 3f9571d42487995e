package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"unicode/utf8"
)

type grepArgs struct {
	Pattern string `json:"pattern"`
	Glob    string `json:"glob"`
}

// grepTool searches file contents. Its description and parameter
// descriptions are grepDescF, grepPatternDesc and grepGlobDesc in
// texts_zh.go / texts_en.go, limits filled in from limits.go.
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
// use it to prove the search stops at the hit limit); it is called from the
// workers, workers of them at a time. workers is how many files are searched
// at once (0 means two per CPU, at least 4: a worker waiting on a read
// leaves its CPU to another, which measured 0.21 s against 0.24 s with one
// per CPU on Go's source tree, on 2 CPUs; four per CPU was no faster).
type grepper struct {
	onOpen  func(rel string)
	workers int
}

// perlOnly finds what models copy from PCRE and RE2 refuses: lookahead,
// lookbehind and backreferences.
var perlOnly = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]`)

// run returns "path:line:content" hits in path order, then line order; at
// most grepMaxHits, and a note when more exist. Searching stops at the first
// hit past the limit. Notes say when a byte budget cut the search short.
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
	var lits []literal
	if parsed, err := syntax.Parse(a.Pattern, syntax.Perl); err == nil {
		lits = requiredLiterals(parsed.Simplify())
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

	if g.workers == 0 {
		g.workers = max(4, 2*runtime.GOMAXPROCS(0))
	}
	c := g.searchAll(ctx, root, filter, func() *searcher { return newSearcher(re, lits, g.onOpen) })
	if c.err != nil {
		return "", c.err
	}
	var out []string
	switch {
	case len(c.hits) == 0 && a.Glob != "":
		out = append(out, fmt.Sprintf(t.grepNoneGlobF, a.Pattern, c.searched, a.Glob))
	case len(c.hits) == 0:
		out = append(out, fmt.Sprintf(t.grepNoneF, a.Pattern, c.searched))
	default:
		out = c.hits
	}
	if c.more {
		out = append(out, fmt.Sprintf(t.grepMoreF, grepMaxHits))
	}
	if c.cutFiles > 0 {
		out = append(out, fmt.Sprintf(t.grepFileCutF, c.cutFiles, fileByteBudget>>20, showPath(c.firstCut)))
	}
	if c.callCut {
		out = append(out, fmt.Sprintf(t.grepCallCutF, grepByteBudget>>20, showPath(c.last)))
	}
	return strings.Join(out, "\n"), nil
}

// around returns line as valid UTF-8, cut to limit runes around the match at
// bytes [start,end): the window is centred on the match, and a cut side
// shows "…" within the limit. Before the match, the match and after it are
// each made valid as strings.ToValidUTF8 makes them (a run of invalid bytes
// is one U+FFFD). The line is read once to count its runes and again up to
// the window's end, and only the window is built: a hit on a line of
// megabytes (minified code) costs no copy of the line.
func around(line []byte, start, end, limit int) string {
	parts := [3][]byte{line[:start], line[start:end], line[end:]}
	var runes [3]int
	for i, p := range parts {
		eachValidRune(p, func(rune) bool { runes[i]++; return true })
	}
	total := runes[0] + runes[1] + runes[2]
	from, to := 0, total
	if total > limit {
		m := min(runes[1], limit-2) // room for "…" on both sides
		from = max(0, min(runes[0]-(limit-m)/2, total-limit))
		to = from + limit
	}
	window := make([]rune, 0, to-from)
	at := 0 // runes passed
	for i, p := range parts {
		if at+runes[i] <= from || at >= to {
			at += runes[i]
			continue
		}
		eachValidRune(p, func(r rune) bool {
			if at >= from {
				window = append(window, r)
			}
			at++
			return at < to
		})
	}
	if from > 0 {
		window[0] = '…'
	}
	if to < total {
		window[len(window)-1] = '…'
	}
	return string(window)
}

// eachValidRune calls yield with each rune of p as strings.ToValidUTF8(p,
// "\uFFFD") has them (a run of invalid bytes is one U+FFFD) until yield
// returns false.
func eachValidRune(p []byte, yield func(rune) bool) {
	invalid := false // the byte before was part of an invalid run
	for i := 0; i < len(p); {
		r, n := rune(p[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(p[i:])
		}
		i += n
		if r == utf8.RuneError && n == 1 {
			if invalid {
				continue
			}
			invalid = true
		} else {
			invalid = false
		}
		if !yield(r) {
			return
		}
	}
}
