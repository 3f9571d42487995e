package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A File is a file to write, its folder opened when the run began.
type File struct {
	path string
	root *os.Root
	name string
}

// Open opens the folder of path, the file to be written later.
func Open(path string) (*File, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &File{path: path, root: root, name: filepath.Base(path)}, nil
}

// Write writes what write gives to a temporary file in the folder, syncs
// it and renames it over the file's name.
func (f *File) Write(write func(io.Writer) error) error {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	temp := "." + f.name + "." + hex.EncodeToString(rnd[:]) + ".tmp"
	out, err := f.root.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %w", f.path, err)
	}
	err = write(out)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.root.Rename(temp, f.name)
	}
	if err != nil {
		f.root.Remove(temp)
		return fmt.Errorf("%s: %w", f.path, err)
	}
	return nil
}

// Close closes the folder.
func (f *File) Close() error { return f.root.Close() }
