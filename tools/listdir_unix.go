//go:build unix

package tools

import (
	"io/fs"
	"os"
	"syscall"
)

// list lists the folder name (root-relative) through a duplicate of its
// descriptor opened as a plain file: the entries keep the types the
// directory records instead of one lstat each.
func (c *folders) list(root *os.Root, name string) ([]fs.DirEntry, error) {
	fd, err := c.folder(root, name)
	if err != nil {
		return nil, err
	}
	dup, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(dup)
	d := os.NewFile(uintptr(dup), name)
	defer d.Close()
	return d.ReadDir(-1)
}
