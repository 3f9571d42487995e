package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Errors for paths the workspace refuses. Tools turn them into failure texts.
var (
	ErrOutsideWorkspace = errors.New("path is outside the workspace")
	ErrNULInPath        = errors.New("path contains a NUL byte")
	ErrNotRegular       = errors.New("not a regular file")
	ErrIsDirectory      = errors.New("is a directory")
)

// maxLinkDepth bounds how many symlinks Resolve follows by hand.
const maxLinkDepth = 40

// Workspace is the folder the tools may read. Every path is resolved through
// symlinks and must land inside it.
type Workspace struct {
	root    string // absolute, cleaned, symlinks resolved
	rootSep string // root with one trailing separator
}

// NewWorkspace resolves root (made absolute, through symlinks) once.
func NewWorkspace(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("workspace %s: %w", root, ErrNotDir)
	}
	sep := real
	if !strings.HasSuffix(sep, string(filepath.Separator)) {
		sep += string(filepath.Separator)
	}
	return &Workspace{root: real, rootSep: sep}, nil
}

// ErrNotDir is returned by NewWorkspace for a root that is not a folder.
var ErrNotDir = errors.New("not a directory")

// Root returns the workspace's absolute root, symlinks resolved.
func (w *Workspace) Root() string { return w.root }

// Resolve maps a path as the model gave it (relative to the root, or
// absolute) to a path relative to the root with / separators ("." for the
// root itself). The path is cleaned and resolved through symlinks on its
// longest existing prefix; a result outside the root is ErrOutsideWorkspace.
func (w *Workspace) Resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: %q", ErrNULInPath, p)
	}
	native := filepath.FromSlash(p)
	if !filepath.IsAbs(native) {
		native = filepath.Join(w.root, native)
	}
	real := resolveExisting(filepath.Clean(native), 0)
	if real != w.root && !strings.HasPrefix(real, w.rootSep) {
		return "", fmt.Errorf("%w: %q", ErrOutsideWorkspace, p)
	}
	rel, err := filepath.Rel(w.root, real)
	if err != nil {
		return "", fmt.Errorf("%w: %q", ErrOutsideWorkspace, p)
	}
	return filepath.ToSlash(rel), nil
}

// resolveExisting resolves symlinks on the longest existing prefix of abs and
// appends the rest. A dangling symlink on the way is followed by hand, so a
// link to a missing file outside the root still resolves outside.
func resolveExisting(abs string, depth int) string {
	dir, tail := abs, ""
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, tail)
		}
		if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 && depth < maxLinkDepth {
			if target, err := os.Readlink(dir); err == nil {
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(dir), target)
				}
				return resolveExisting(filepath.Join(target, tail), depth+1)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		tail = filepath.Join(filepath.Base(dir), tail)
		dir = parent
	}
}

// openRegular opens a file by its resolved relative path through os.Root (a
// second guard against escapes). Only regular files are opened: it stats
// first, so a FIFO or a device is refused without blocking.
func (w *Workspace) openRegular(rel string) (*os.File, fs.FileInfo, error) {
	root, err := os.OpenRoot(w.root)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	info, err := root.Stat(rel)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(info); err != nil {
		return nil, info, err
	}
	f, err := root.OpenFile(rel, openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err = f.Stat()
	if err == nil {
		err = regular(info)
	}
	if err != nil {
		f.Close()
		return nil, info, err
	}
	return f, info, nil
}

func regular(info fs.FileInfo) error {
	switch {
	case info.IsDir():
		return ErrIsDirectory
	case !info.Mode().IsRegular():
		return ErrNotRegular
	}
	return nil
}
