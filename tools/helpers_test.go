package tools

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// newTree writes files (path -> content, / separators) under a fresh temp
// folder and returns the folder, symlinks resolved.
func newTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	return dir
}

// writeFiles writes files (path: content) under dir, making their folders.
// The contents are written as they are, not copied to bytes first: some
// tests write files of tens of megabytes.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteString(content)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// newWorkspace makes a workspace of files under <tmp>/root and returns it
// with <tmp>, so tests can put things beside the root.
func newWorkspace(t testing.TB, files map[string]string) (*Workspace, string) {
	t.Helper()
	parent := newTree(t, nil)
	root := filepath.Join(parent, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, files)
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws, parent
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every entry under dir (type, size, content hash, link
// target) so a test can prove a tool changed nothing on disk.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d %v", info.Mode(), info.Size(), info.ModTime().UnixNano())
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		}
		out[strings.TrimPrefix(p, dir)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// execute runs one call through the default registry and checks that the
// tree under dir is unchanged afterwards.
func execute(t *testing.T, ws *Workspace, dir string, lang Lang, name, args string) Result {
	t.Helper()
	before := snapshot(t, dir)
	res := Default(ws, lang).Execute(context.Background(), Call{ID: "call_1", Name: name, Arguments: args})
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("%s %s changed the tree (-before +after):\n%s", name, args, diff)
	}
	return res
}
