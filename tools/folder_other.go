//go:build !unix

package tools

import (
	"errors"
	"os"
)

// folders opens the files grep searches, keeping the folder of the last
// file opened open as a root of its own: a folder's files come one after
// another, and each is opened by its bare name.
type folders struct {
	dir  *os.Root
	name string
}

var errNotRegular = errors.New("not a regular file")

// openFile opens rel, a regular file the walk found, and returns it with its
// size.
func (c *folders) openFile(root *os.Root, rel string) (textFile, int64, error) {
	dir, name := splitRel(rel)
	if c.dir == nil || dir != c.name {
		c.close()
		d, err := root.OpenRoot(dir)
		if err != nil {
			return textFile{}, 0, err
		}
		c.dir, c.name = d, dir
	}
	f, err := c.dir.OpenFile(name, openFlags, 0)
	if err != nil {
		return textFile{}, 0, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return textFile{}, 0, errNotRegular
	}
	return textFile{f}, info.Size(), nil
}

// close closes the open folder.
func (c *folders) close() {
	if c.dir != nil {
		c.dir.Close()
		c.dir = nil
	}
}

// textFile is a file openFile opened.
type textFile struct{ *os.File }
