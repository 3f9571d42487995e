package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workspace writes a small repository to a temporary folder and makes it the
// working directory, as the agent's tools expect.
func workspace(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.go":            "package main\n\nfunc main() { divide(1, 0) }\n",
		"src/calc.go":        "package main\n\nfunc divide(a, b int) int {\n\treturn a / b\n}\n",
		"src/deep/x_test.go": "package deep\n",
		".git/config":        "divide inside .git\n",
		"notes.txt":          "nothing here\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

func TestRunTool(t *testing.T) {
	workspace(t)
	tests := []struct {
		reason, name, args, want string
	}{
		{"a file is read whole", "read_file", `{"path":"src/calc.go"}`,
			"package main\n\nfunc divide(a, b int) int {\n\treturn a / b\n}\n"},
		{"./ is accepted", "read_file", `{"path":"./notes.txt"}`, "nothing here\n"},
		{"a missing file is an error string", "read_file", `{"path":"nope.go"}`,
			"error: open nope.go: no such file or directory"},
		{"a path outside the repository is refused", "read_file", `{"path":"../etc/passwd"}`,
			`error: "../etc/passwd" is not a path inside the repository`},
		{"an absolute path is refused", "read_file", `{"path":"/etc/passwd"}`,
			`error: "/etc/passwd" is not a path inside the repository`},
		{"a quote, a backslash and CJK in a path are just a missing file", "read_file", `{"path":"a\"b\\c中.txt"}`,
			"error: open a\"b\\c中.txt: no such file or directory"},
		{"a directory cannot be read", "read_file", `{"path":"src"}`,
			"error: read src: is a directory"},
		{"** matches any depth, dot directories are left out", "glob", `{"pattern":"**/*.go"}`,
			"main.go\nsrc/calc.go\nsrc/deep/x_test.go"},
		{"* stays in one directory", "glob", `{"pattern":"src/*"}`, "src/calc.go"},
		{"** at the end matches every file below", "glob", `{"pattern":"src/**"}`, "src/calc.go\nsrc/deep/x_test.go"},
		{"no match says so", "glob", `{"pattern":"**/*.js"}`, "no file matches **/*.js"},
		{"a bad pattern is an error string", "glob", `{"pattern":"[a"}`,
			`error: bad pattern "[a": syntax error in pattern`},
		{"grep prints path:line:text, not inside .git", "grep", `{"pattern":"divide"}`,
			"main.go:3:func main() { divide(1, 0) }\nsrc/calc.go:3:func divide(a, b int) int {\n"},
		{"grep in one directory", "grep", `{"pattern":"^package","path":"src/deep"}`,
			"src/deep/x_test.go:1:package deep\n"},
		{"grep without a match says so", "grep", `{"pattern":"multiply"}`, "no match for multiply"},
		{"a bad regular expression is an error string", "grep", `{"pattern":"("}`,
			"error: error parsing regexp: missing closing ): `(`"},
		{"grep in a missing directory is an error string", "grep", `{"pattern":"x","path":"lib"}`,
			"error: stat lib: no such file or directory"},
		{"arguments that are not JSON are an error string", "read_file", `{"path":`,
			"error: the arguments of read_file are not a JSON object: unexpected end of JSON input"},
		{"an unknown tool is an error string", "edit_file", `{}`,
			`error: there is no tool "edit_file"; the tools are read_file, glob and grep`},
	}
	for _, tt := range tests {
		if got := runTool(tt.name, tt.args); got != tt.want {
			t.Errorf("%s: runTool(%s, %s)\n got %q\nwant %q", tt.reason, tt.name, tt.args, got, tt.want)
		}
	}
}

func TestRunToolTruncates(t *testing.T) {
	workspace(t)
	if err := os.WriteFile("big.txt", []byte(strings.Repeat("x", maxResult+100)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := runTool("read_file", `{"path":"big.txt"}`)
	want := strings.Repeat("x", maxResult) + "\n[truncated]"
	if got != want {
		t.Errorf("runTool(read_file, big.txt) is %d bytes ending %q, want %d ending %q", len(got), got[len(got)-20:], len(want), want[len(want)-20:])
	}
}
