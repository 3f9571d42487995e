//go:build !unix

package tools

import (
	"io/fs"
	"os"
)

// listDir lists an open folder.
func listDir(f *os.File) ([]fs.DirEntry, error) { return f.ReadDir(-1) }
