package tools

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGrep(t *testing.T) {
	long := strings.Repeat("a", 200) + "NEEDLE" + strings.Repeat("b", 200)
	ws, parent := newWorkspace(t, map[string]string{
		"src/calc.js":       "function divide(a, b) {\n  return a / b;\n}\n",
		"src/index.js":      "const calc = require('./calc');\nconsole.log(calc.divide(1, 0));\n",
		"test/calc.test.js": "expect(divide(1, 0)).toThrow();\n",
		"README.md":         "Divide by zero.\r\n",
		"bin.dat":           "divide\x00divide",
		"node_modules/x.js": "divide\n",
		"long.txt":          long + "\n",
		"start.txt":         "NEEDLE" + strings.Repeat("c", 300) + "\n",
		"end.txt":           strings.Repeat("d", 300) + "NEEDLE\n",
		"bad.txt":           "x\xffNEEDLE\n",
		"cjk.txt":           strings.Repeat("字", 100) + "针" + strings.Repeat("字", 100) + "\n",
	})
	symlink(t, ws.Root(), filepath.Join(ws.Root(), "src", "loop"))
	symlink(t, parent, filepath.Join(ws.Root(), "out"))
	os.WriteFile(filepath.Join(parent, "secret.js"), []byte("divide\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(ws.Root(), "src", "pipe.js"), 0o644); err != nil {
		t.Fatal(err) // a FIFO with no writer must be skipped, not opened
	}

	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"path:line:content in path order; skips binary, node_modules and symlinks", ZH, `{"pattern":"divide"}`,
			"src/calc.js:1:function divide(a, b) {\nsrc/index.js:2:console.log(calc.divide(1, 0));\ntest/calc.test.js:1:expect(divide(1, 0)).toThrow();"},
		{"case-insensitive with (?i); CR removed", ZH, `{"pattern":"(?i)divide by"}`, "README.md:1:Divide by zero."},
		{"a literal with regexp characters", ZH, `{"pattern":"a / b"}`, "src/calc.js:2:  return a / b;"},
		{"the glob parameter narrows the files", ZH, `{"pattern":"divide","glob":"test/**/*.js"}`, "test/calc.test.js:1:expect(divide(1, 0)).toThrow();"},
		{"a long line is cut to 120 runes around the match", ZH, `{"pattern":"NEEDLE","glob":"long.txt"}`,
			"long.txt:1:…" + strings.Repeat("a", 56) + "NEEDLE" + strings.Repeat("b", 56) + "…"},
		{"a match at the start keeps the start", ZH, `{"pattern":"NEEDLE","glob":"start.txt"}`,
			"start.txt:1:NEEDLE" + strings.Repeat("c", 113) + "…"},
		{"a match at the end keeps the end", ZH, `{"pattern":"NEEDLE","glob":"end.txt"}`,
			"end.txt:1:…" + strings.Repeat("d", 113) + "NEEDLE"},
		{"runes, not bytes", ZH, `{"pattern":"针"}`,
			"cjk.txt:1:…" + strings.Repeat("字", 58) + "针" + strings.Repeat("字", 59) + "…"},
		{"invalid UTF-8 becomes U+FFFD", ZH, `{"pattern":"NEEDLE","glob":"bad.txt"}`, "bad.txt:1:x\uFFFDNEEDLE"},
		{"no hit says how many files were searched", ZH, `{"pattern":"nothing here"}`, `没有匹配 "nothing here" 的行（搜索了 9 个文件）。`},
		{"no hit with a glob", ZH, `{"pattern":"zzz","glob":"src/*.js"}`, `没有匹配 "zzz" 的行（搜索了 2 个匹配 "src/*.js" 的文件）。`},
		{"no hit, en", EN, `{"pattern":"zzz"}`, `No lines match "zzz" (files searched: 9).`},
		{"no hit with a glob, en", EN, `{"pattern":"zzz","glob":"**/*.md"}`, `No lines match "zzz" (files searched: 1, those matching "**/*.md").`},
	}
	for _, tt := range tests {
		res := execute(t, ws, parent, tt.lang, "grep", tt.args)
		if res.IsError {
			t.Errorf("%s: IsError: %s", tt.reason, res.Content)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestGrepRefuses(t *testing.T) {
	ws, parent := newWorkspace(t, map[string]string{"a.js": "x\n"})
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"an invalid regular expression", EN, `{"pattern":"("}`, "grep: invalid regular expression \"(\": missing closing ): `(`"},
		{"an invalid regular expression, zh", ZH, `{"pattern":"a[b"}`, "grep：正则表达式 \"a[b\" 不合法：missing closing ]: `[b`"},
		{"a PCRE lookbehind gets a hint", EN, `{"pattern":"(?<!\\.)divide"}`, "grep: invalid regular expression \"(?<!\\\\.)divide\": invalid named capture: `(?<!\\.)divide` (RE2 has no lookahead, lookbehind or backreferences: rewrite the pattern without them)"},
		{"a backreference gets a hint, zh", ZH, `{"pattern":"(a)\\1"}`, "grep：正则表达式 \"(a)\\\\1\" 不合法：invalid escape sequence: `\\1`（RE2 不支持前瞻、后顾和反向引用，请去掉它们改写）"},
		{"a glob outside", EN, `{"pattern":"x","glob":"../**"}`, `grep: pattern "../**" points outside the workspace`},
		{"a NUL byte in the glob, zh", ZH, `{"pattern":"x","glob":"src/\u0000*"}`, `grep：模式 "src/\x00*" 里有 NUL 字节`},
		{"an empty pattern", ZH, `{"pattern":""}`, `grep：参数不符合要求：参数 pattern 至少要有 1 个字符，收到的是 ""。`},
		{"a wrong type", EN, `{"pattern":1}`, `grep: invalid arguments: parameter pattern must be a string, got 1.`},
	}
	for _, tt := range tests {
		res := execute(t, ws, parent, tt.lang, "grep", tt.args)
		if !res.IsError {
			t.Errorf("%s: not a failure result", tt.reason)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// TestGrepStopsAtHitLimit: with 3 hits per file, 50 hits fill after 17 files
// and the 51st hit is in file 17, so with one worker no file after it is
// opened, and with 8 at most the files in flight (4 per worker) are.
func TestGrepStopsAtHitLimit(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("f%03d.txt", i)] = "hit 1\nmiss\nhit 2\nhit 3\n"
	}
	ws, _ := newWorkspace(t, files)
	var mu sync.Mutex
	var opened []string
	g := grepper{workers: 8, onOpen: func(rel string) { mu.Lock(); opened = append(opened, rel); mu.Unlock() }}
	got8, err := g.run(context.Background(), ws, ZH.texts(), grepArgs{Pattern: "hit"})
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) < 17 || len(opened) > 17+4*8 {
		t.Errorf("8 workers opened %d files, want 17 to %d", len(opened), 17+4*8)
	}
	opened = nil
	g.workers = 1
	got, err := g.run(context.Background(), ws, ZH.texts(), grepArgs{Pattern: "hit"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, got8); diff != "" {
		t.Errorf("1 and 8 workers differ (-1 +8):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"f000.txt", "f016.txt"}, []string{opened[0], opened[len(opened)-1]}); diff != "" || len(opened) != 17 {
		t.Errorf("opened %d files, first and last (-want +got):\n%s", len(opened), diff)
	}
	lines := strings.Split(got, "\n")
	if diff := cmp.Diff([]string{"f000.txt:1:hit 1", "f016.txt:3:hit 2", "（已达到 50 条上限，后面还有命中；请把 pattern 写得更具体，或用 glob 参数缩小文件范围）"},
		[]string{lines[0], lines[49], lines[50]}); diff != "" || len(lines) != 51 {
		t.Errorf("%d lines; first, 50th, note (-want +got):\n%s", len(lines), diff)
	}
	// Exactly 50 hits: no note.
	ws2, _ := newWorkspace(t, map[string]string{"a.txt": strings.Repeat("hit\n", 50)})
	got, _ = grepper{}.run(context.Background(), ws2, EN.texts(), grepArgs{Pattern: "hit"})
	if n := strings.Count(got, "\n") + 1; n != 50 || strings.Contains(got, "stopped") {
		t.Errorf("50 hits gave %d lines", n)
	}
	got, _ = grepper{}.run(context.Background(), ws, EN.texts(), grepArgs{Pattern: "hit"})
	if !strings.HasSuffix(got, "\n(stopped at 50 hits; there are more: make the pattern more specific or narrow the files with the glob parameter)") {
		t.Errorf("en note missing: %q", got[len(got)-80:])
	}
}

func TestAround(t *testing.T) {
	tests := []struct {
		reason     string
		line       string
		start, end int
		want       string
	}{
		{"short lines are kept", "abc", 1, 2, "abc"},
		{"a match longer than the window keeps its start", strings.Repeat("x", 10) + strings.Repeat("m", 200), 10, 210, "…" + strings.Repeat("m", 118) + "…"},
		{"exactly 120 is kept", strings.Repeat("y", 120), 0, 1, strings.Repeat("y", 120)},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, around([]byte(tt.line), tt.start, tt.end, 120)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// aroundRunes is around as it was first written, the whole line made
// runes: the reference TestAroundSameAsRunes holds around to.
func aroundRunes(line []byte, start, end, limit int) string {
	before := []rune(strings.ToValidUTF8(string(line[:start]), "\uFFFD"))
	match := []rune(strings.ToValidUTF8(string(line[start:end]), "\uFFFD"))
	after := []rune(strings.ToValidUTF8(string(line[end:]), "\uFFFD"))
	all := append(append(before, match...), after...)
	if len(all) <= limit {
		return string(all)
	}
	m := min(len(match), limit-2)
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

// TestAroundSameAsRunes: around gives what making the whole line runes
// gives, on random lines of ASCII, runes of 2 to 4 bytes, U+FFFD itself and
// runs of invalid bytes (also across the match's edges), whatever the match
// and the limit.
func TestAroundSameAsRunes(t *testing.T) {
	pieces := []string{"a", "b", " ", "é", "中", "𝄞", "\uFFFD", "\xff", "\xe4\xb8", "\x80\x80", "…"}
	rng := rand.New(rand.NewPCG(7, 1))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(300) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := []byte(b.String())
		start := rng.IntN(len(line) + 1)
		end := start + rng.IntN(len(line)-start+1)
		limit := 2 + rng.IntN(130)
		if got, want := around(line, start, end, limit), aroundRunes(line, start, end, limit); got != want {
			t.Fatalf("around(%q, %d, %d, %d) = %q, want %q", line, start, end, limit, got, want)
		}
	}
}

// TestGrepWorkerPanic: a panic in a worker goroutine, where Execute's recover
// does not reach, still becomes the call's error and not a crash.
func TestGrepWorkerPanic(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%03d.txt", i)] = "x\n"
	}
	ws, _ := newWorkspace(t, files)
	for _, workers := range []int{1, 8} {
		g := grepper{workers: workers, onOpen: func(rel string) {
			if rel == "f005.txt" {
				panic("boom")
			}
		}}
		var got string
		var err error
		func() {
			defer func() {
				if v := recover(); v != nil {
					err = panicError{value: v} // one worker: the calling goroutine panics, as before
				}
			}()
			got, err = g.run(context.Background(), ws, EN.texts(), grepArgs{Pattern: "zzz"})
		}()
		var p panicError
		if !errors.As(err, &p) || fmt.Sprint(p.value) != "boom" {
			t.Errorf("%d workers: got %q, %v; want the panic as an error", workers, got, err)
		}
	}
}
