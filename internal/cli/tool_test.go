package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// toolWorkspace writes a small repository for `agentvcr tool` tests.
func toolWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var gen strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&gen, "// generated line %03d: %s\n", i, strings.Repeat("x", 67))
	}
	files := map[string]string{
		"src/calc.js": strings.Repeat("line\n", 12) + "end\n",
		"gen.txt":     gen.String(),
		// header (26 runes) + 99 x (5+195) + (5+169) = 20,000 runes of result
		"big.txt": strings.Repeat(strings.Repeat("字", 195)+"\n", 99) + strings.Repeat("字", 169) + "\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runTool(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return Capture(Env{Dir: ".", Stdin: strings.NewReader(stdin)}, append([]string{"tool"}, args...)...)
}

type toolLine struct {
	OK            bool   `json:"ok"`
	Content       string `json:"content"`
	Chars         int    `json:"chars"`
	Truncated     bool   `json:"truncated"`
	OriginalChars int    `json:"original_chars"`
}

func TestToolCommandPlain(t *testing.T) {
	dir := toolWorkspace(t)
	t.Setenv("AGENTVCR_LANG", "")
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"the exact text fed back, then a newline", []string{"-C", dir, "read_file", `{"path":"src/calc.js","limit":2}`},
			"src/calc.js（第 1–2 行，共 13 行）\n1\tline\n2\tline\n（后面还有 11 行；继续读请用 offset=3）\n"},
		{"en", []string{"-C", dir, "-lang", "en", "glob", `{"pattern":"**/*.js"}`}, "src/calc.js\n"},
		{"a failure result is printed too", []string{"-C", dir, "edit_file", `{"path":"src/calc.js"}`},
			"没有名为 edit_file 的工具。可用的工具是：glob、grep、read_file\n"},
		{"ARGS_JSON defaults to {}", []string{"-C", dir, "-lang", "en", "read_file"},
			"read_file: invalid arguments: missing required parameter path.\n"},
		{"bad JSON", []string{"-C", dir, "-lang", "en", "grep", `{"pattern":`},
			"grep: the arguments are not valid JSON (unexpected end of JSON input, byte 11); send one JSON object. The raw text starts with: {\"pattern\":\n"},
	}
	for _, tt := range tests {
		code, out, errOut := runTool(t, "", tt.args...)
		if code != 0 || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", tt.reason, code, errOut)
		}
		if diff := cmp.Diff(tt.want, out); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestToolCommandJSON(t *testing.T) {
	dir := toolWorkspace(t)
	t.Setenv("AGENTVCR_LANG", "")
	tests := []struct {
		reason string
		args   []string
		stdin  string
		check  func(toolLine) string
	}{
		{"the unknown tool: 45 runes", []string{"edit_file", "{}"}, "", func(l toolLine) string {
			return cmp.Diff(toolLine{OK: false, Content: "没有名为 edit_file 的工具。可用的工具是：glob、grep、read_file", Chars: 45, OriginalChars: 45}, l)
		}},
		{"a 20,000-rune result is cut to 8054, noting 12000 removed", []string{"read_file", `{"path":"big.txt"}`}, "", func(l toolLine) string {
			if !strings.Contains(l.Content, "（中间已截断 12000 字符，全文共 20000 字符；") {
				return "note missing"
			}
			l.Content = ""
			return cmp.Diff(toolLine{OK: true, Chars: 8054, Truncated: true, OriginalChars: 20000}, l)
		}},
		{"reading a generated ~38,000-char file feeds back 8054", []string{"read_file", `{"path":"gen.txt"}`}, "", func(l toolLine) string {
			if !l.OK || !l.Truncated || l.Chars != 8054 || l.OriginalChars < 37500 || l.OriginalChars > 38500 || utf8.RuneCountInString(l.Content) != l.Chars {
				return fmt.Sprintf("got ok=%v truncated=%v chars=%d original=%d", l.OK, l.Truncated, l.Chars, l.OriginalChars)
			}
			return ""
		}},
		{"ARGS_JSON - reads stdin", []string{"-lang", "en", "glob", "-"}, `{"pattern":"*.txt"}`, func(l toolLine) string {
			return cmp.Diff(toolLine{OK: true, Content: "big.txt\ngen.txt", Chars: 15, OriginalChars: 15}, l)
		}},
	}
	for _, tt := range tests {
		code, out, errOut := runTool(t, tt.stdin, append([]string{"-C", dir, "-json"}, tt.args...)...)
		if code != 0 || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", tt.reason, code, errOut)
		}
		if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
			t.Errorf("%s: want one line, got %q", tt.reason, out)
		}
		var l toolLine
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if msg := tt.check(l); msg != "" {
			t.Errorf("%s: %s", tt.reason, msg)
		}
	}
	_, out, _ := runTool(t, "", "-C", dir, "-json", "edit_file")
	if want := `{"ok":false,"content":"没有名为 edit_file 的工具。可用的工具是：glob、grep、read_file","chars":45,"truncated":false,"original_chars":45}` + "\n"; out != want {
		t.Errorf("key order and escaping:\n got %s\nwant %s", out, want)
	}
}

func TestToolCommandLangFromEnv(t *testing.T) {
	dir := toolWorkspace(t)
	env := Env{Dir: ".", Getenv: Vars(map[string]string{"AGENTVCR_LANG": "en"})}
	_, out, _ := Capture(env, "tool", "-C", dir, "edit_file")
	if want := "There is no tool named edit_file. Available tools: glob, grep, read_file\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	_, out, _ = Capture(env, "tool", "-C", dir, "-lang", "zh", "edit_file")
	if !strings.HasPrefix(out, "没有名为") {
		t.Errorf("-lang zh does not override the environment: %q", out)
	}
}

func TestToolCommandCurrentDir(t *testing.T) {
	dir := toolWorkspace(t)
	t.Chdir(dir)
	t.Setenv("AGENTVCR_LANG", "")
	code, out, _ := runTool(t, "", "glob", `{"pattern":"src/*"}`)
	if code != 0 || out != "src/calc.js\n" {
		t.Errorf("exit %d, %q", code, out)
	}
}

func TestToolCommandUsageErrors(t *testing.T) {
	dir := toolWorkspace(t)
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"no tool name", []string{"-C", dir}, 2, "usage: agentvcr tool"},
		{"too many arguments", []string{"-C", dir, "glob", "{}", "extra"}, 2, "usage: agentvcr tool"},
		{"an unknown flag", []string{"-x", "glob"}, 2, "flag provided but not defined: -x"},
		{"an unknown language", []string{"-lang", "fr", "glob"}, 2, `agentvcr tool: unknown language "fr" (want zh or en)`},
		{"a workspace that does not exist", []string{"-C", filepath.Join(dir, "nope"), "glob"}, 1, "agentvcr tool: workspace:"},
	}
	for _, tt := range tests {
		code, out, errOut := runTool(t, "", tt.args...)
		if code != tt.code || out != "" || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%s: exit %d (want %d), stdout %q, stderr %q (want %q)", tt.reason, code, tt.code, out, errOut, tt.stderr)
		}
	}
}
