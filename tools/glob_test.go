package tools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func globTree(t *testing.T) (*Workspace, string) {
	t.Helper()
	ws, parent := newWorkspace(t, map[string]string{
		"package.json":              "{}",
		"a.txt":                     "a",
		"a/b.txt":                   "b",
		"a-b/c.txt":                 "c",
		"src/calc.js":               "x",
		"src/index.js":              "x",
		"src/util/str.js":           "x",
		"src/util/deep/x.ts":        "x",
		"test/calc.test.js":         "x",
		"test/unit/str.test.js":     "x",
		"node_modules/lib/index.js": "x",
		".git/config":               "x",
		"dist/bundle.js":            "x",
		"src/dist/skip.js":          "x",
		".env":                      "x",
	})
	os.WriteFile(filepath.Join(parent, "secret.js"), []byte("s"), 0o644)
	symlink(t, ws.Root(), filepath.Join(ws.Root(), "src", "loop"))
	symlink(t, parent, filepath.Join(ws.Root(), "out"))
	symlink(t, "calc.js", filepath.Join(ws.Root(), "src", "calc_link.js"))
	if err := syscall.Mkfifo(filepath.Join(ws.Root(), "src", "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, parent
}

func TestGlob(t *testing.T) {
	ws, parent := globTree(t)
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"** spans folders; skips node_modules, .git, dist and symlinks", ZH, `{"pattern":"**/*.js"}`,
			"src/calc.js\nsrc/index.js\nsrc/util/str.js\ntest/calc.test.js\ntest/unit/str.test.js"},
		{"* stays in one folder", ZH, `{"pattern":"src/*.js"}`, "src/calc.js\nsrc/index.js"},
		{"? is one character", ZH, `{"pattern":"?.txt"}`, "a.txt"},
		{"sorted by full path: a.txt, a-b/, a/", ZH, `{"pattern":"**/*.txt"}`, "a-b/c.txt\na.txt\na/b.txt"},
		{"** in the middle", ZH, `{"pattern":"test/**/*.test.js"}`, "test/calc.test.js\ntest/unit/str.test.js"},
		{"** at the end", ZH, `{"pattern":"src/util/**"}`, "src/util/deep/x.ts\nsrc/util/str.js"},
		{"a plain path", ZH, `{"pattern":"src/calc.js"}`, "src/calc.js"},
		{"dot files match *", ZH, `{"pattern":".*"}`, ".env"},
		{"a leading ./ is ignored", ZH, `{"pattern":"./src/*.js"}`, "src/calc.js\nsrc/index.js"},
		{"an absolute pattern inside the workspace", ZH, fmt.Sprintf(`{"pattern":%q}`, ws.Root()+"/src/*.js"), "src/calc.js\nsrc/index.js"},
		{"a skipped folder named by the prefix is walked", ZH, `{"pattern":"node_modules/**/*.js"}`, "node_modules/lib/index.js"},
		{"character classes", ZH, `{"pattern":"src/[ci]*.js"}`, "src/calc.js\nsrc/index.js"},
		{"the limit and how many more", ZH, `{"pattern":"**/*.js","limit":2}`,
			"src/calc.js\nsrc/index.js\n（还有 3 个文件没有显示；请用更具体的模式缩小范围）"},
		{"how many more, en", EN, `{"pattern":"**","limit":1}`, ".env\n(files not shown: 10 more; use a more specific pattern)"},
		{"no match says how many files there are", ZH, `{"pattern":"**/*.py"}`,
			`没有文件匹配 "**/*.py"。工作目录里一共有 11 个文件（不算 node_modules、.git、dist 里的）。`},
		{"no match, en", EN, `{"pattern":"nope/*.js"}`,
			`No files match "nope/*.js". Files in the workspace: 11 in all (not counting node_modules, .git and dist).`},
	}
	for _, tt := range tests {
		res := execute(t, ws, parent, tt.lang, "glob", tt.args)
		if res.IsError {
			t.Errorf("%s: IsError", tt.reason)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestGlobRefuses(t *testing.T) {
	ws, parent := globTree(t)
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"a pattern starting with ../", EN, `{"pattern":"../*.js"}`, `glob: pattern "../*.js" points outside the workspace`},
		{"../ in zh", ZH, `{"pattern":"../**"}`, `glob：模式 "../**" 指向工作目录之外`},
		{"an absolute pattern outside", EN, `{"pattern":"/etc/*"}`, `glob: pattern "/etc/*" points outside the workspace`},
		{"a sibling sharing the root's prefix", EN, `{"pattern":"../root2/*"}`, `glob: pattern "../root2/*" points outside the workspace`},
		{"a symlinked folder pointing outside", EN, `{"pattern":"out/*.js"}`, `glob: pattern "out/*.js" points outside the workspace`},
		{".. after a wildcard", EN, `{"pattern":"src/*/../../../*"}`, `glob: pattern "src/*/../../../*": .. may only appear before the first wildcard`},
		{"an unclosed class", ZH, `{"pattern":"src/[a*.js"}`, `glob：模式 "src/[a*.js" 不合法：检查 [ ] 是否成对、\ 后面是否跟着字符`},
		{"a NUL byte", EN, `{"pattern":"*\u0000"}`, `glob: pattern "*\x00" contains a NUL byte`},
		{"nothing but slashes", EN, `{"pattern":"/"}`, `glob: invalid pattern "/": check that [ ] pair up and that \ is followed by a character`},
		{"limit 0", EN, `{"pattern":"*","limit":0}`, `glob: invalid arguments: parameter limit must be at least 1, got 0.`},
		{"missing pattern", ZH, `{"glob":"*.js"}`, `glob：参数不符合要求：缺少必填参数 pattern；不认识的参数 glob（可用的参数：limit、pattern）。`},
	}
	for _, tt := range tests {
		res := execute(t, ws, parent, tt.lang, "glob", tt.args)
		if !res.IsError {
			t.Errorf("%s: not a failure result", tt.reason)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
		if strings.Contains(res.Content, parent) {
			t.Errorf("%s: leaks a host path", tt.reason)
		}
	}
}

func TestMatchParts(t *testing.T) {
	tests := []struct {
		reason  string
		pattern string
		path    string
		want    bool
	}{
		{"** matches zero folders", "**/a.js", "a.js", true},
		{"** matches several folders", "**/a.js", "x/y/z/a.js", true},
		{"* does not cross folders", "*.js", "x/a.js", false},
		{"consecutive ** collapse", "**/**/a.js", "x/a.js", true},
		{"** then a folder", "src/**/test/*.js", "src/a/b/test/x.js", true},
		{"** then a folder, absent", "src/**/test/*.js", "src/a/b/x.js", false},
		{"? is one rune", "?.md", "字.md", true},
	}
	for _, tt := range tests {
		got := matchParts(collapseStars(strings.Split(tt.pattern, "/")), strings.Split(tt.path, "/"))
		if got != tt.want {
			t.Errorf("%s: match(%q, %q) = %v, want %v", tt.reason, tt.pattern, tt.path, got, tt.want)
		}
	}
}

// deepTree makes a workspace holding one chain of depth folders named a,
// with a file named file in the root and in every folder of the chain, and
// returns it with the files' paths from the top down.
func deepTree(t *testing.T, depth int, file string) (*Workspace, []string) {
	t.Helper()
	ws, _ := newWorkspace(t, nil)
	var paths []string
	dir := ""
	for i := 0; ; i++ {
		p := dir + file
		if err := os.WriteFile(filepath.Join(ws.Root(), filepath.FromSlash(p)), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		if i == depth {
			break
		}
		dir += "a/"
		if err := os.Mkdir(filepath.Join(ws.Root(), filepath.FromSlash(dir)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return ws, paths
}

// finishes runs f and fails the test if it has not returned within a minute
// (or before the test's own deadline): a matcher that backtracks over the
// ways "**" can split a path runs for hours on these inputs.
func finishes[T any](t *testing.T, f func() T) T {
	t.Helper()
	wait := time.Minute
	if d, ok := t.Deadline(); ok && time.Until(d)/2 < wait {
		wait = time.Until(d) / 2
	}
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(wait):
		t.Fatalf("still running after %v", wait)
		panic("unreachable")
	}
}

func TestGlobManyStarsTakeLinearTime(t *testing.T) {
	sixAs := "**/a/**/a/**/a/**/a/**/a/**/a/"
	tests := []struct {
		reason  string
		depth   int
		file    string
		pattern string
		want    func(paths []string) []string
	}{
		{"six ** around a, 60 folders deep: every x under at least six folders", 60, "x", sixAs + "x",
			func(p []string) []string { return p[6:] }},
		{"six ** around a, a file name that never matches", 60, "y", sixAs + "x",
			func([]string) []string { return nil }},
		{"**/*/ ten times on a 32-deep tree: files under at least nine folders", 32, "f", strings.Repeat("**/*/", 10),
			func(p []string) []string { return p[9:] }},
	}
	for _, tt := range tests {
		ws, paths := deepTree(t, tt.depth, tt.file)
		r := Default(ws, EN)
		matched := tt.want(paths)
		slices.Sort(matched) // path order: "a/" sorts before "f"
		want := strings.Join(matched, "\n")
		if want == "" {
			want = fmt.Sprintf("No files match %q. Files in the workspace: %d in all (not counting node_modules, .git and dist).", tt.pattern, len(paths))
		}
		got := finishes(t, func() Result {
			return r.Execute(context.Background(), Call{Name: "glob", Arguments: fmt.Sprintf(`{"pattern":%q}`, tt.pattern)})
		})
		if diff := cmp.Diff(want, got.Content); diff != "" {
			t.Errorf("glob, %s (-want +got):\n%s", tt.reason, diff)
		}

		// The same pattern as grep's glob parameter: every file holds "x".
		var hits []string
		for _, p := range matched {
			hits = append(hits, p+":1:x")
		}
		if len(hits) > grepMaxHits {
			hits = append(hits[:grepMaxHits], fmt.Sprintf(enTexts.grepMoreF, grepMaxHits))
		}
		want = strings.Join(hits, "\n")
		if want == "" {
			want = fmt.Sprintf("No lines match \"x\" (files searched: 0, those matching %q).", tt.pattern)
		}
		got = finishes(t, func() Result {
			return r.Execute(context.Background(), Call{Name: "grep", Arguments: fmt.Sprintf(`{"pattern":"x","glob":%q}`, tt.pattern)})
		})
		if diff := cmp.Diff(want, got.Content); diff != "" {
			t.Errorf("grep, %s (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// countingFS counts the ReadDir calls on each folder.
type countingFS struct {
	fs.FS
	reads map[string]int
}

func (c countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.reads[name]++
	return fs.ReadDir(c.FS, name)
}

// TestGlobNoMatchReadsEachFolderOnce: a pattern that matches nothing still
// counts every file of the workspace, reading no folder twice.
func TestGlobNoMatchReadsEachFolderOnce(t *testing.T) {
	ws, _ := globTree(t)
	root, err := os.OpenRoot(ws.Root())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, pattern := range []string{"**/*.py", "src/*.py", "src/util/deep/*.py", "nope/*.js", "test/**/*.py", "node_modules/*.py"} {
		g, err := compileGlob(ws, EN.texts(), pattern)
		if err != nil {
			t.Fatal(err)
		}
		rfs := newRootFS(root)
		defer rfs.close()
		fsys := countingFS{FS: rfs, reads: map[string]int{}}
		got, err := globIn(context.Background(), fsys, g, EN.texts(), globArgs{Pattern: pattern, Limit: globMaxPaths})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("No files match %q. Files in the workspace: 11 in all (not counting node_modules, .git and dist).", pattern)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", pattern, diff)
		}
		for dir, n := range fsys.reads {
			if n > 1 {
				t.Errorf("%s: folder %s read %d times", pattern, dir, n)
			}
		}
	}
}

// backtrack is the plain recursive matcher: exponential in the number of
// "**" on long paths, but obviously right; the automaton must agree with it.
func backtrack(parts, names []string) bool {
	if len(parts) == 0 {
		return len(names) == 0
	}
	if parts[0] == "**" {
		for i := 0; i <= len(names); i++ {
			if backtrack(parts[1:], names[i:]) {
				return true
			}
		}
		return false
	}
	if len(names) == 0 {
		return false
	}
	ok, _ := path.Match(parts[0], names[0])
	return ok && backtrack(parts[1:], names[1:])
}

// TestAutomatonAgreesWithBacktracking: on every short pattern and path over
// a small alphabet, match agrees with backtrack, and mayContain is true for
// every folder above a matching path.
func TestAutomatonAgreesWithBacktracking(t *testing.T) {
	comps := []string{"**", "*", "a", "b", "?", "a*"}
	names := []string{"a", "b", "ab"}
	var patterns [][]string
	var grow func(p []string)
	grow = func(p []string) {
		if len(p) > 0 {
			patterns = append(patterns, collapseStars(slices.Clone(p)))
		}
		if len(p) < 4 {
			for _, c := range comps {
				grow(append(p, c))
			}
		}
	}
	grow(nil)
	var paths [][]string
	var grow2 func(p []string)
	grow2 = func(p []string) {
		if len(p) > 0 {
			paths = append(paths, slices.Clone(p))
		}
		if len(p) < 4 {
			for _, n := range names {
				grow2(append(p, n))
			}
		}
	}
	grow2(nil)
	checked := 0
	for _, parts := range patterns {
		g := globPattern{dir: ".", parts: parts}
		for _, p := range paths {
			want := backtrack(parts, p)
			if got := matchParts(parts, p); got != want {
				t.Fatalf("match(%q, %q) = %v, backtracking says %v", parts, p, got, want)
			}
			if want {
				for i := 1; i < len(p); i++ {
					if !g.mayContain(strings.Join(p[:i], "/")) {
						t.Fatalf("mayContain(%q) under pattern %q is false, but %q matches", p[:i], parts, p)
					}
				}
			}
			checked++
		}
	}
	if checked < 100000 {
		t.Errorf("only %d cases checked", checked)
	}
}
