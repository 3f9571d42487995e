//go:build !unix

package tools

import (
	"io/fs"
	"os"
)

// list lists the folder name (root-relative), opened through the root.
func (c *folders) list(root *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
