//go:build unix

package tools

import (
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
)

// folders opens the files grep searches. It keeps the folders of the last
// file opened open, one descriptor per path element, each opened by its bare
// name from the one above it without following a symlink: the walk hands a
// searcher files of nearby folders one after another, so a file costs one
// openat and a new folder one per path element that changed. Files are
// opened, read and closed with plain system calls: a regular file cannot be
// polled, and going through os.File only adds a failed epoll registration
// and flag checks to every file (12,777 failed epoll_ctl calls for the
// 11,478 files of Go's source tree).
type folders struct {
	names []string // path elements of the open folder, below the root
	fds   []int    // descriptor of each
	root  *os.File // the root folder, opened through the root
}

// folder returns the descriptor of dir (root-relative, "." the root), opening
// what is not open yet.
func (c *folders) folder(root *os.Root, dir string) (int, error) {
	if c.root == nil {
		f, err := root.Open(".")
		if err != nil {
			return -1, err
		}
		c.root = f
	}
	var names []string
	if dir != "." {
		names = strings.Split(dir, "/")
	}
	keep := 0
	for keep < len(names) && keep < len(c.names) && names[keep] == c.names[keep] {
		keep++
	}
	c.closeFrom(keep)
	for _, name := range names[keep:] {
		if name == ".." || name == "." || name == "" {
			return -1, errNotRegular
		}
		fd, err := openat(c.top(), name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW)
		if err != nil {
			return -1, err
		}
		c.names, c.fds = append(c.names, name), append(c.fds, fd)
	}
	return c.top(), nil
}

// top is the descriptor of the deepest open folder.
func (c *folders) top() int {
	if len(c.fds) > 0 {
		return c.fds[len(c.fds)-1]
	}
	fd := -1
	if raw, err := c.root.SyscallConn(); err == nil {
		raw.Control(func(v uintptr) { fd = int(v) })
	}
	return fd
}

func (c *folders) closeFrom(keep int) {
	for _, fd := range c.fds[keep:] {
		syscall.Close(fd)
	}
	c.names, c.fds = c.names[:keep], c.fds[:keep]
}

// close closes every folder.
func (c *folders) close() {
	c.closeFrom(0)
	if c.root != nil {
		c.root.Close()
		c.root = nil
	}
}

var errNotRegular = errors.New("not a regular file")

// openFile opens rel, a regular file the walk found, and returns it with its
// size. It neither follows a symlink (a file swapped for one since the walk
// saw it is skipped) nor blocks (a file swapped for a FIFO).
func (c *folders) openFile(root *os.Root, rel string) (textFile, int64, error) {
	dir, name := splitRel(rel)
	at, err := c.folder(root, dir)
	if err != nil {
		return textFile{}, 0, err
	}
	fd, err := openat(at, name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOFOLLOW)
	if err != nil {
		return textFile{}, 0, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return textFile{}, 0, errNotRegular
	}
	return textFile{fd: fd}, st.Size, nil
}

func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dir, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// textFile is a file openFile opened.
type textFile struct{ fd int }

// Read reads like os.File.Read: io.EOF at the end.
func (f textFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f textFile) Close() error { return syscall.Close(f.fd) }
