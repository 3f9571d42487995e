package tools

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

const calcZH = `src/calc.js（第 1–13 行，共 13 行）
 1	// calc.js: a small calculator with a bug in divide.
 2	function add(a, b) {
 3	  return a + b;
 4	}
 5	
 6	function divide(a, b) {
 7	  // BUG: should refuse b === 0
 8	  return a / b;
 9	}
10	
11	module.exports = { add, divide };
12	
13	// end`

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	calc, err := os.ReadFile("testdata/calc.js")
	if err != nil {
		t.Fatal(err)
	}
	long500 := strings.Repeat("字", 500)
	files := map[string]string{
		"src/calc.js":       string(calc),
		"big.txt":           numbered(1, 1000),
		"empty.txt":         "",
		"nolf.txt":          "a\nb",
		"crlf.txt":          "a\r\nb\r\n",
		"blank.txt":         "\n\n",
		"bad.txt":           "ok\xff\xfeend\n",
		"bin.dat":           "PNG\x00\x01\x02",
		"late_nul.txt":      strings.Repeat("a", 8000) + "\x00",
		"long.txt":          long500 + "\n" + long500 + "字\n" + strings.Repeat("😀", 700),
		"深/文件.txt":          "你好\n",
		"node_modules/m.js": "m\n",
	}
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"a 13-line file with its header", ZH, `{"path":"src/calc.js"}`, calcZH},
		{"the en header", EN, `{"path":"./src/calc.js","limit":2}`,
			"src/calc.js (lines 1–2 of 13)\n1\t// calc.js: a small calculator with a bug in divide.\n2\tfunction add(a, b) {\n(remaining lines: 11; to continue, read again with offset=3)"},
		{"400 lines by default, then where to continue", ZH, `{"path":"big.txt"}`,
			"big.txt（第 1–400 行，共 1000 行）\n" + numberedOut(1, 400, 3) + "\n（后面还有 600 行；继续读请用 offset=401）"},
		{"offset and limit", ZH, `{"path":"big.txt","offset":998,"limit":5}`,
			"big.txt（第 998–1000 行，共 1000 行）\n" + numberedOut(998, 1000, 4)},
		{"offset and limit in the middle", EN, `{"path":"big.txt","offset":9,"limit":2}`,
			"big.txt (lines 9–10 of 1000)\n 9\tline 9\n10\tline 10\n(remaining lines: 990; to continue, read again with offset=11)"},
		{"a limit over 400 reads 400 lines and says the cap before where to continue", ZH, `{"path":"big.txt","offset":2,"limit":1000}`,
			"big.txt（第 2–401 行，共 1000 行）\n" + numberedOut(2, 401, 3) + "\n（limit 1000 超过了每次最多读取的 400 行）\n（后面还有 599 行；继续读请用 offset=402）"},
		{"a capped read that reaches the end needs no note, en", EN, `{"path":"big.txt","offset":601,"limit":401}`,
			"big.txt (lines 601–1000 of 1000)\n" + numberedOut(601, 1000, 4)},
		{"the cap note only when lines remain, en", EN, `{"path":"big.txt","offset":600,"limit":401}`,
			"big.txt (lines 600–999 of 1000)\n" + numberedOut(600, 999, 3) + "\n(limit 401 is above the cap of 400 lines per read)\n(remaining lines: 1; to continue, read again with offset=1000)"},
		{"an empty file", ZH, `{"path":"empty.txt"}`, "empty.txt（空文件，共 0 行）"},
		{"an empty file, en", EN, `{"path":"empty.txt","offset":3}`, "empty.txt (empty file, 0 lines)"},
		{"a last line without a newline counts", ZH, `{"path":"nolf.txt"}`, "nolf.txt（第 1–2 行，共 2 行）\n1\ta\n2\tb"},
		{"CRLF line ends are removed", ZH, `{"path":"crlf.txt"}`, "crlf.txt（第 1–2 行，共 2 行）\n1\ta\n2\tb"},
		{"blank lines", ZH, `{"path":"blank.txt"}`, "blank.txt（第 1–2 行，共 2 行）\n1\t\n2\t"},
		{"invalid UTF-8 becomes U+FFFD", ZH, `{"path":"bad.txt"}`, "bad.txt（第 1–1 行，共 1 行）\n1\tok\uFFFDend"},
		{"a NUL in the first 8000 bytes means binary", ZH, `{"path":"bin.dat"}`, "bin.dat 是二进制文件（6 字节），不显示内容。"},
		{"binary, en", EN, `{"path":"bin.dat"}`, "bin.dat is a binary file (6 bytes); its content is not shown."},
		{"a NUL after 8000 bytes is text", ZH, `{"path":"late_nul.txt"}`,
			"late_nul.txt（第 1–1 行，共 1 行）\n1\t" + strings.Repeat("a", 500) + "…（此行过长，只显示前 500 字符）"},
		{"lines over 500 runes are cut, counted in runes", ZH, `{"path":"long.txt"}`,
			"long.txt（第 1–3 行，共 3 行）\n1\t" + long500 + "\n2\t" + long500 + "…（此行过长，只显示前 500 字符）\n3\t" + strings.Repeat("😀", 500) + "…（此行过长，只显示前 500 字符）"},
		{"the line cut, en", EN, `{"path":"long.txt","offset":2,"limit":1}`,
			"long.txt (lines 2–2 of 3)\n2\t" + long500 + "… (line too long; first 500 characters shown)\n(remaining lines: 1; to continue, read again with offset=3)"},
		{"CJK names", ZH, `{"path":"深/文件.txt"}`, "深/文件.txt（第 1–1 行，共 1 行）\n1\t你好"},
		{"skipped folders are still readable by path", ZH, `{"path":"node_modules/m.js"}`, "node_modules/m.js（第 1–1 行，共 1 行）\n1\tm"},
	}
	ws, dir := newWorkspace(t, files)
	for _, tt := range tests {
		res := execute(t, ws, dir, tt.lang, "read_file", tt.args)
		if res.IsError {
			t.Errorf("%s: IsError, content %q", tt.reason, res.Content)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func numberedOut(from, to, width int) string {
	var lines []string
	for i := from; i <= to; i++ {
		lines = append(lines, fmt.Sprintf("%*d\tline %d", width, i, i))
	}
	return strings.Join(lines, "\n")
}

func TestReadFileRefuses(t *testing.T) {
	ws, parent := newWorkspace(t, map[string]string{"src/calc.js": "x\n", "src/a.txt": "a\n"})
	root := ws.Root()
	os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("secret\n"), 0o644)
	os.MkdirAll(filepath.Join(parent, "root2"), 0o755)
	os.WriteFile(filepath.Join(parent, "root2", "x"), []byte("x\n"), 0o644)
	symlink(t, filepath.Join(parent, "secret.txt"), filepath.Join(root, "out_file"))
	symlink(t, parent, filepath.Join(root, "out_dir"))
	symlink(t, "/dev/zero", filepath.Join(root, "zero"))
	symlink(t, "loop_b", filepath.Join(root, "loop_a"))
	symlink(t, "loop_a", filepath.Join(root, "loop_b"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		lang   Lang
		args   string
		want   string
	}{
		{"parent escape", EN, `{"path":"../x"}`, `read_file: path "../x" is outside the workspace`},
		{"parent escape, zh", ZH, `{"path":"../x"}`, `read_file：路径 "../x" 在工作目录之外`},
		{"an absolute path outside", EN, `{"path":"/etc/passwd"}`, `read_file: path "/etc/passwd" is outside the workspace`},
		{"a sibling sharing the root's prefix", EN, `{"path":"../root2/x"}`, `read_file: path "../root2/x" is outside the workspace`},
		{"a symlinked file pointing outside", EN, `{"path":"out_file"}`, `read_file: path "out_file" is outside the workspace`},
		{"a symlinked folder pointing outside", EN, `{"path":"out_dir/secret.txt"}`, `read_file: path "out_dir/secret.txt" is outside the workspace`},
		{"/dev/zero through a symlink", EN, `{"path":"zero"}`, `read_file: path "zero" is outside the workspace`},
		{"a NUL byte in the path", EN, `{"path":"src/calc.js\u0000x"}`, `read_file: path "src/calc.js\x00x" contains a NUL byte`},
		{"a NUL byte, zh", ZH, `{"path":"a\u0000"}`, `read_file：路径 "a\x00" 里有 NUL 字节`},
		{"a FIFO is refused at once", EN, `{"path":"pipe"}`, "read_file: pipe is not a regular file (a named pipe); it cannot be read"},
		{"a FIFO, zh", ZH, `{"path":"pipe"}`, "read_file：pipe 不是普通文件（命名管道），不能读取"},
		{"a directory", EN, `{"path":"src"}`, `read_file: src is a directory, not a file; to list its files use glob, e.g. {"pattern":"src/*"}`},
		{"the root", ZH, `{"path":"."}`, `read_file：. 是目录，不是文件；要列出其中的文件请用 glob，例如 {"pattern":"*"}`},
		{"a missing file", EN, `{"path":"src/nope.js"}`, `read_file: file src/nope.js does not exist; if unsure of the path, find it with glob first, e.g. {"pattern":"**/nope.js"}`},
		{"a missing file, zh", ZH, `{"path":"lib/x.js"}`, `read_file：文件 lib/x.js 不存在；不确定路径时先用 glob 找，例如 {"pattern":"**/x.js"}`},
		{"a symlink loop", EN, `{"path":"loop_a"}`, "read_file: reading loop_a failed: too many levels of symbolic links"},
		{"offset past the end", EN, `{"path":"src/calc.js","offset":5}`, "read_file: offset 5 is past the end of the file (lines in src/calc.js: 1)"},
		{"offset past the end, zh", ZH, `{"path":"src/calc.js","offset":2}`, "read_file：offset 2 超出了文件末尾（src/calc.js 共 1 行）"},
		{"limit given as a string", EN, `{"path":"src/calc.js","limit":"200"}`, `read_file: invalid arguments: parameter limit must be an integer, got "200".`},
		{"an offset too large for an int", EN, `{"path":"src/calc.js","offset":100000000000000000000}`,
			"read_file: invalid arguments: parameter offset must be at most " + strconv.Itoa(math.MaxInt) + ", got 100000000000000000000."},
		{"a limit too large for an int, zh", ZH, `{"path":"src/calc.js","limit":100000000000000000000}`,
			"read_file：参数不符合要求：参数 limit 不能大于 " + strconv.Itoa(math.MaxInt) + "，收到的是 100000000000000000000。"},
		{"offset 0", EN, `{"path":"src/calc.js","offset":0}`, `read_file: invalid arguments: parameter offset must be at least 1, got 0.`},
		{"missing path and an unknown property", EN, `{"file_path":"src/calc.js"}`,
			`read_file: invalid arguments: missing required parameter path; unknown parameter file_path (allowed: limit, offset, path).`},
		{"an empty path", ZH, `{"path":""}`, `read_file：参数不符合要求：参数 path 至少要有 1 个字符，收到的是 ""。`},
	}
	for _, tt := range tests {
		res := execute(t, ws, parent, tt.lang, "read_file", tt.args)
		if !res.IsError {
			t.Errorf("%s: not a failure result", tt.reason)
		}
		if diff := cmp.Diff(tt.want, res.Content); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
		if strings.Contains(res.Content, parent) {
			t.Errorf("%s: leaks a host path: %q", tt.reason, res.Content)
		}
	}
}

// TestReadFileTruncated: the lesson's second golden number. A generated file
// of about 38,000 characters read with the default limit feeds back 8054.
func TestReadFileTruncated(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&b, "// generated line %03d: %s\n", i, strings.Repeat("x", 67))
	}
	ws, dir := newWorkspace(t, map[string]string{"gen.txt": b.String()})
	res := execute(t, ws, dir, ZH, "read_file", `{"path":"gen.txt"}`)
	if got := res.Chars(); got != 8054 {
		t.Errorf("fed back %d runes, want 8054", got)
	}
	if !res.Meta.Truncated || res.Meta.OriginalChars < 37500 || res.Meta.OriginalChars > 38500 {
		t.Errorf("meta = %+v, want truncated from about 38,000", res.Meta)
	}
	note := fmt.Sprintf("\n…（中间已截断 %d 字符，全文共 %d 字符；需要中间部分请带 offset 再读一次）…\n", res.Meta.OriginalChars-8000, res.Meta.OriginalChars)
	if !strings.Contains(res.Content, note) || !strings.HasPrefix(res.Content, "gen.txt（第 1–400 行，共 400 行）\n") {
		t.Errorf("content lacks the header or the note %q", note)
	}
}

// TestReadFileLongLineMemory: one 5 MB line is cut to 500 runes and the read
// allocates nowhere near the file's size.
func TestReadFileLongLineMemory(t *testing.T) {
	ws, _ := newWorkspace(t, nil)
	line := bytes.Repeat([]byte("abcdefghij"), 500_000)
	if err := os.WriteFile(filepath.Join(ws.Root(), "min.js"), append(line, "\nend\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := Default(ws, EN).Execute(context.Background(), Call{Name: "read_file", Arguments: `{"path":"min.js"}`})
	runtime.ReadMemStats(&after)
	want := "min.js (lines 1–2 of 2)\n1\t" + string(line[:500]) + "… (line too long; first 500 characters shown)\n2\tend"
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 512<<10 {
		t.Errorf("allocated %d bytes for a 5 MB line", alloc)
	}
	if utf8.RuneCountInString(res.Content) > 600 {
		t.Errorf("fed back %d runes", res.Chars())
	}
}

// FuzzReadFile: whatever the bytes, read_file feeds back valid UTF-8, lines of
// at most 500 runes plus the cut note, and at most 8054 runes in all.
func FuzzReadFile(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"), 1)
	f.Add([]byte("字😀\xff\xfe\n"), 700)
	f.Add([]byte("\x00bin"), 1)
	ws, _ := newWorkspace(f, nil)
	r := Default(ws, ZH)
	path := filepath.Join(ws.Root(), "f.txt")
	f.Fuzz(func(t *testing.T, unit []byte, repeat int) {
		if repeat < 0 || len(unit)*repeat > 200_000 {
			return
		}
		if err := os.WriteFile(path, bytes.Repeat(unit, repeat), 0o644); err != nil {
			t.Fatal(err)
		}
		res := r.Execute(context.Background(), Call{Name: "read_file", Arguments: `{"path":"f.txt"}`})
		if res.IsError || !utf8.ValidString(res.Content) || res.Chars() > 8054 {
			t.Fatalf("error=%v valid=%v chars=%d: %.200q", res.IsError, utf8.ValidString(res.Content), res.Chars(), res.Content)
		}
		if res.Meta.Truncated {
			return
		}
		for _, line := range strings.Split(res.Content, "\n")[1:] {
			line = strings.TrimSuffix(line, "…（此行过长，只显示前 500 字符）")
			if n := utf8.RuneCountInString(line); n > 500+8 {
				t.Fatalf("a line of %d runes", n)
			}
		}
	})
}

// A file too large to count to its end within countBudget gets a lower
// bound in the header and the footer, so that reading its first lines takes
// the same time whatever its size; a file that fits gets the exact count.
func TestReadFileCountBudget(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	big := strings.Repeat(line, countBudget/100+1000)
	fits := strings.Repeat(line, 1000)
	ws, dir := newWorkspace(t, map[string]string{"big.log": big, "fits.log": fits})
	counted := 3 + countBudget/readBufSize*readBufSize/100 // lines 1-3 read, then whole buffers up to the budget
	tests := []struct {
		reason, lang, args, header, footer string
	}{
		{"too large, zh", "zh", `{"path":"big.log","limit":3}`,
			fmt.Sprintf("big.log（第 1–3 行，至少 %d 行，文件太大没有数完）", counted),
			fmt.Sprintf("（后面至少还有 %d 行；继续读请用 offset=4）", counted-3)},
		{"too large, en", "en", `{"path":"big.log","limit":3}`,
			fmt.Sprintf("big.log (lines 1–3 of at least %d; the file is too large to count to its end)", counted),
			fmt.Sprintf("(remaining lines: at least %d; to continue, read again with offset=4)", counted-3)},
		{"fits", "zh", `{"path":"fits.log","limit":3}`,
			"fits.log（第 1–3 行，共 1000 行）", "（后面还有 997 行；继续读请用 offset=4）"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			res := execute(t, ws, dir, Lang(tt.lang), "read_file", tt.args)
			lines := strings.Split(res.Content, "\n")
			if diff := cmp.Diff([]string{tt.header, tt.footer}, []string{lines[0], lines[len(lines)-1]}); diff != "" {
				t.Errorf("header and footer (-want +got):\n%s", diff)
			}
		})
	}
}
