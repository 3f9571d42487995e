//go:build unix

package tools

import (
	"io/fs"
	"os"
	"syscall"
)

// listDir lists an open folder through a duplicate of its descriptor opened
// as a plain file: no path is resolved (the folder is already open), and the
// entries keep the types the directory records instead of one lstat each.
func listDir(f *os.File) ([]fs.DirEntry, error) {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f.ReadDir(-1)
	}
	d := os.NewFile(uintptr(fd), f.Name())
	defer d.Close()
	return d.ReadDir(-1)
}
