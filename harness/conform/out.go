package conform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ErrOutLink marks a symbolic link found under -out: WriteOut writes
// through none.
var ErrOutLink = errors.New("conform follows no link under -out")

// DroppedFile is the file of -out that names the variables ScrubEnv kept
// from the agent, one a line (names only, never a value).
const DroppedFile = "env-dropped.txt"

// WriteOut keeps what -out keeps under dir: for each result, a folder
// named after its case holding stdout, stderr, request-N.json (the
// bodies as sent; for a request sent over a WebSocket, the HTTP body it
// stands for, and frame-N.json the response.create frame as sent; the
// frames served are answer-N.sse's events, one frame each), side-N.json (the side requests' bodies) and
// unrouted-N.txt (a request on no format's path: its method and path, a
// blank line, its body), and DroppedFile listing dropped. Each case's folder is
// made fresh: what a previous run left in it is removed. Nothing is
// written through a symbolic link: dir is opened as an os.Root (no path
// may leave it), and a link at a case's folder, inside it or at
// DroppedFile fails with ErrOutLink, naming it, before anything is
// written. WriteOut is OpenOut and Write at once; conform opens -out
// before the agent runs, so that a link the agent plants in the folder's
// place is not followed either.
func WriteOut(dir string, results []Result, dropped []string) error {
	o, err := OpenOut(dir)
	if err != nil {
		return err
	}
	defer o.Close()
	return o.Write(results, dropped)
}

// An OutDir is -out's folder, made if need be and opened (an os.Root)
// when the run begins.
type OutDir struct {
	dir  string
	root *os.Root
}

// OpenOut makes dir if it is missing and opens it.
func OpenOut(dir string) (*OutDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("-out %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("-out %s: %w", dir, err)
	}
	return &OutDir{dir: dir, root: root}, nil
}

// Write keeps the results under the folder, as WriteOut says.
func (o *OutDir) Write(results []Result, dropped []string) error {
	if err := writeOut(o.root, results, dropped); err != nil {
		return fmt.Errorf("-out %s: %w", o.dir, err)
	}
	return nil
}

// Close closes the folder.
func (o *OutDir) Close() error { return o.root.Close() }

func writeOut(root *os.Root, results []Result, dropped []string) error {
	for _, name := range append([]string{DroppedFile}, caseIDs(results)...) {
		if err := refuseLinks(root, name); err != nil {
			return err
		}
	}
	if err := root.RemoveAll(DroppedFile); err != nil {
		return err
	}
	var names strings.Builder
	for _, n := range dropped {
		names.WriteString(n + "\n")
	}
	if err := createFile(root, DroppedFile, []byte(names.String())); err != nil {
		return err
	}
	for _, r := range results {
		id := r.Case.ID
		if err := root.RemoveAll(id); err != nil {
			return err
		}
		if err := root.Mkdir(id, 0o755); err != nil {
			return err
		}
		if err := createFile(root, id+"/stdout", r.Stdout); err != nil {
			return err
		}
		if err := createFile(root, id+"/stderr", r.Stderr); err != nil {
			return err
		}
		for i, body := range r.Requests {
			if err := createFile(root, fmt.Sprintf("%s/request-%d.json", id, i+1), body); err != nil {
				return err
			}
		}
		for i, frame := range r.Frames {
			if frame == nil {
				continue
			}
			if err := createFile(root, fmt.Sprintf("%s/frame-%d.json", id, i+1), frame); err != nil {
				return err
			}
		}
		for _, a := range r.Answers {
			ext := ".sse"
			if a.Whole {
				ext = ".json"
			}
			if err := createFile(root, fmt.Sprintf("%s/answer-%d%s", id, a.Request, ext), a.Served); err != nil {
				return err
			}
			if a.Clean != nil {
				if err := createFile(root, fmt.Sprintf("%s/answer-%d.clean.sse", id, a.Request), a.Clean); err != nil {
					return err
				}
			}
		}
		for i, body := range r.Side {
			if err := createFile(root, fmt.Sprintf("%s/side-%d.json", id, i+1), body); err != nil {
				return err
			}
		}
		for i, u := range r.Unrouted {
			text := append([]byte(u.Method+" "+u.Path+"\n\n"), u.Body...)
			if err := createFile(root, fmt.Sprintf("%s/unrouted-%d.txt", id, i+1), text); err != nil {
				return err
			}
		}
	}
	return nil
}

func caseIDs(results []Result) []string {
	ids := make([]string, len(results))
	for i, r := range results {
		ids[i] = r.Case.ID
	}
	return ids
}

// refuseLinks fails with ErrOutLink when name, or anything under it, is a
// symbolic link.
func refuseLinks(root *os.Root, name string) error {
	link := func(path string) error {
		target, err := root.Readlink(path)
		if err != nil {
			return err
		}
		return fmt.Errorf("%s is a symbolic link to %s: %w; remove it", path, target, ErrOutLink)
	}
	fi, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return link(name) // WalkDir would follow it
	}
	return fs.WalkDir(root.FS(), name, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return link(path)
		}
		return nil
	})
}

// createFile writes a new file at name, failing if one is there: a link
// planted after refuseLinks looked is not followed either.
func createFile(root *os.Root, name string, data []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
