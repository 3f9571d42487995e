package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// skipDirs are folders no walk enters (a pattern's literal prefix may still
// name one explicitly).
var skipDirs = []string{"node_modules", ".git", "dist"}

// errStopWalk ends a walk early without an error.
var errStopWalk = errors.New("stop walk")

// walkFiles calls fn with the root-relative path of every regular file under
// dir, in sorted path order (the order of the full path strings). It does not
// follow symlinks (they are neither files nor folders here, so a link loop
// cannot trap it), skips skipDirs and enters a folder only when enter says so.
// Unreadable folders are skipped. fn may return errStopWalk. The context is
// checked before every folder and every file.
func walkFiles(ctx context.Context, fsys fs.FS, dir string, enter func(rel string) bool, fn func(rel string) error) error {
	err := walkDir(ctx, fsys, dir, enter, fn)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, fsys fs.FS, dir string, enter func(string) bool, fn func(string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(sortKey(a), sortKey(b)) })
	for _, e := range entries {
		rel := path.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if slices.Contains(skipDirs, e.Name()) || !enter(rel) {
				continue
			}
			if err := walkDir(ctx, fsys, rel, enter, fn); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(rel); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortKey orders a folder as its name plus "/", which makes the walk visit
// paths in the order of their full strings ("a.txt" before "a/b").
func sortKey(e fs.DirEntry) string {
	if e.IsDir() {
		return e.Name() + "/"
	}
	return e.Name()
}

// rootFS is root.FS() whose ReadDir does not stat every entry. A folder
// opened through an os.Root lists its entries with one lstat each (Go loads
// them eagerly there); the folder is still opened through the root, and its
// entries are then listed from the open folder itself (listDir), with the
// types the directory already records. Folders are opened through a
// folders cache, so that a walk, which lists a folder's subfolders right
// after it, opens each with one openat instead of one per path element.
// close releases them.
type rootFS struct {
	fs.FS
	root    *os.Root
	folders *folders
}

func newRootFS(root *os.Root) rootFS {
	return rootFS{FS: root.FS(), root: root, folders: &folders{}}
}

func (r rootFS) close() { r.folders.close() }

// ReadDir lists the folder name (root-relative, / separators), sorted by name.
func (r rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := r.folders.list(r.root, name)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
