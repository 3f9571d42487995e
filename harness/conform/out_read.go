package conform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ReadOut fills results, read from a JSON report, with what -out kept of
// the same run under dir: each case's stdout and stderr, its requests
// (request-N.json) and the answers conform served (answer-N.sse, or
// answer-N.json for a whole turn, and answer-N.clean.sse where the case's
// transform changed the turn). The
// HTML report shows them (not which fault an answer was, nor where a
// stall or reset cut it: -out does not keep that). dir is read through os.Root, so a link that
// leads out of it is not followed. A case with no folder under dir is an
// error naming it: the folder is another run's.
func ReadOut(dir string, results []Result) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	read := func(name string) ([]byte, bool, error) {
		b, err := root.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return b, err == nil, err
	}
	for i := range results {
		r := &results[i]
		id := r.Case.ID
		if fi, err := root.Stat(id); err != nil || !fi.IsDir() {
			return fmt.Errorf("%s holds no folder %s: give the -out folder of the run the report is of", dir, id)
		}
		var err error
		if r.Stdout, _, err = read(id + "/stdout"); err != nil {
			return err
		}
		if r.Stderr, _, err = read(id + "/stderr"); err != nil {
			return err
		}
		for n := 1; n <= len(r.Requests); n++ {
			if r.Requests[n-1], _, err = read(fmt.Sprintf("%s/request-%d.json", id, n)); err != nil {
				return err
			}
		}
		r.Frames = nil
		for n := 1; n <= len(r.Requests); n++ {
			frame, ok, err := read(fmt.Sprintf("%s/frame-%d.json", id, n))
			if err != nil {
				return err
			}
			if ok {
				if r.Frames == nil {
					r.Frames = make([][]byte, len(r.Requests))
				}
				r.Frames[n-1] = frame
			}
		}
		r.Answers = nil
		for n := 1; n <= len(r.Requests); n++ {
			served, ok, err := read(fmt.Sprintf("%s/answer-%d.sse", id, n))
			if err != nil {
				return err
			}
			whole := false
			if !ok {
				if served, whole, err = read(fmt.Sprintf("%s/answer-%d.json", id, n)); err != nil {
					return err
				}
			}
			if !ok && !whole {
				continue // a request answered with an error of conform's own, or stopped
			}
			clean, _, err := read(fmt.Sprintf("%s/answer-%d.clean.sse", id, n))
			if err != nil {
				return err
			}
			r.Answers = append(r.Answers, Answer{Request: n, Served: served, Clean: clean, Whole: whole})
		}
	}
	return nil
}
