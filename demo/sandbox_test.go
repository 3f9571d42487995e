package demo

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestFiles(t *testing.T) {
	files := files()
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	want := []string{
		".git/HEAD", ".git/config", "README.md", "dist/calc.min.js", "main.js",
		"node_modules/left-pad/index.js", "package.json", "src/calc.js",
		"src/generated/tables.json", "src/index.js", "test/calc.test.js",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("sandbox files (-want +got):\n%s", diff)
	}
	calc := string(files["src/calc.js"])
	if n := strings.Count(calc, "\n"); n != 13 || !strings.Contains(calc, "return a / b;") {
		t.Errorf("src/calc.js has %d lines and should hold the a / b bug in 13", n)
	}
	if n := utf8.RuneCount(files[GeneratedFile]); n != 38170 {
		t.Errorf("%s has %d characters, want 38170 (about 38,000)", GeneratedFile, n)
	}
}

func TestWriteSandbox(t *testing.T) {
	dir := t.TempDir()
	if err := WriteSandbox(dir); err != nil {
		t.Fatal(err)
	}
	for name, content := range files() {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(content) {
			t.Errorf("%s written differently", name)
		}
	}
	if err := WriteSandbox(filepath.Join(dir, "src", "calc.js", "x")); err == nil {
		t.Error("writing under a file succeeded")
	}
}
