package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
