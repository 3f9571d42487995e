package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	ws, parent := newWorkspace(t, map[string]string{"src/calc.js": "x", "src/deep/a.txt": "a"})
	root := ws.Root()
	os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("s"), 0o644)
	os.MkdirAll(filepath.Join(parent, "root2"), 0o755)
	os.WriteFile(filepath.Join(parent, "root2", "x"), []byte("x"), 0o644)
	symlink(t, filepath.Join(parent, "secret.txt"), filepath.Join(root, "out_file"))
	symlink(t, parent, filepath.Join(root, "out_dir"))
	symlink(t, "src", filepath.Join(root, "in_dir"))
	symlink(t, filepath.Join(parent, "missing"), filepath.Join(root, "dangling_out"))
	symlink(t, "/dev/zero", filepath.Join(root, "zero"))

	tests := []struct {
		reason string
		in     string
		want   string
		err    error
	}{
		{"a relative path", "src/calc.js", "src/calc.js", nil},
		{"dot segments that stay inside", "./src/deep/../calc.js", "src/calc.js", nil},
		{"the root itself", ".", ".", nil},
		{"empty is the root", "", ".", nil},
		{"an absolute path inside", filepath.Join(root, "src", "calc.js"), "src/calc.js", nil},
		{"a missing file inside", "src/nope/x.js", "src/nope/x.js", nil},
		{"a symlinked folder inside resolves to its target", "in_dir/calc.js", "src/calc.js", nil},
		{"parent escape", "../x", "", ErrOutsideWorkspace},
		{"deep parent escape", "src/../../secret.txt", "", ErrOutsideWorkspace},
		{"an absolute path outside", "/etc/passwd", "", ErrOutsideWorkspace},
		{"a sibling sharing the root's prefix", filepath.Join(parent, "root2", "x"), "", ErrOutsideWorkspace},
		{"a sibling via ..", "../root2/x", "", ErrOutsideWorkspace},
		{"a symlinked file pointing outside", "out_file", "", ErrOutsideWorkspace},
		{"a symlinked folder pointing outside", "out_dir/secret.txt", "", ErrOutsideWorkspace},
		{"a dangling symlink pointing outside", "dangling_out", "", ErrOutsideWorkspace},
		{"/dev/zero through a symlink", "zero", "", ErrOutsideWorkspace},
		{"a NUL byte", "src/calc.js\x00.txt", "", ErrNULInPath},
		{"a name starting with two dots stays inside", "..foo", "..foo", nil},
	}
	for _, tt := range tests {
		got, err := ws.Resolve(tt.in)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: Resolve(%q) error = %v, want %v", tt.reason, tt.in, err, tt.err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Resolve(%q) (-want +got):\n%s", tt.reason, tt.in, diff)
		}
	}
}

func TestNewWorkspace(t *testing.T) {
	parent := newTree(t, map[string]string{"real/a.txt": "a", "file.txt": "f"})
	symlink(t, filepath.Join(parent, "real"), filepath.Join(parent, "link"))
	ws, err := NewWorkspace(filepath.Join(parent, "link"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(filepath.Join(parent, "real"), ws.Root()); diff != "" {
		t.Errorf("Root() resolves symlinks once (-want +got):\n%s", diff)
	}
	if _, err := NewWorkspace(filepath.Join(parent, "file.txt")); !errors.Is(err, ErrNotDir) {
		t.Errorf("a file as root: error = %v, want ErrNotDir", err)
	}
	if _, err := NewWorkspace(filepath.Join(parent, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing root: error = %v, want ErrNotExist", err)
	}
}
