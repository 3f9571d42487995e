package cassette

import (
	"errors"
	"fmt"
	"io"
	"os"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// A recording is saved in memory first: every interaction redacted, the
// whole file encoded and scanned, and only a file that passed the scan is
// written, to the temporary file beside the cassette and then renamed over
// it. Nothing unscanned ever sits on disk, so a recording killed during
// its save (SIGKILL, the OOM killer) leaves at most a clean partial file,
// which the next recording of the same cassette removes and reports (a
// 20 MB temporary file once held a key split across stream deltas).

// keep is the recording's capture filter: go-vcr calls it with each
// interaction as it is recorded, before it adds it to its cassette.
func (c *Cassette) keep(i *vcr.Interaction) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.recorded = append(c.recorded, i)
	return nil
}

// save redacts, encodes and scans the recording in memory, then writes
// and renames it over the cassette. ErrEmptyRecording when nothing was
// recorded; ErrSecretInCassette, with nothing written, when a secret
// survived redaction.
func (c *Cassette) save() error {
	c.mu.Lock()
	recorded := c.recorded
	c.recorded = nil
	c.mu.Unlock()
	if len(recorded) == 0 {
		return fmt.Errorf("cassette %s: %w", c.file, ErrEmptyRecording)
	}
	for _, i := range recorded {
		if err := c.redact(i); err != nil {
			return fmt.Errorf("cassette %s: redact: %w", c.file, err)
		}
	}
	data, err := encodeRecording(append(append([]*vcr.Interaction(nil), c.opts.Existing...), recorded...))
	if err != nil {
		return fmt.Errorf("cassette %s: save: %w", c.file, err)
	}
	if err := Secrets(c.opts.Secrets).ScanData(data); err != nil {
		what := err.Error()
		var se *SecretError
		if errors.As(err, &se) {
			what = se.places()
		}
		return fmt.Errorf("cassette %s: %s; nothing was written: %w", c.file, what, ErrSecretInCassette)
	}
	if err := writeFile(c.temp, data); err != nil {
		return fmt.Errorf("cassette %s: save: %w", c.file, err)
	}
	if err := os.Rename(c.temp, c.file); err != nil {
		os.Remove(c.temp)
		return fmt.Errorf("cassette %s: %w", c.file, err)
	}
	return nil
}

// encodeRecording is the file go-vcr v2.1.0 writes for interactions: a
// YAML document start, then the cassette (format version 1).
func encodeRecording(interactions []*vcr.Interaction) ([]byte, error) {
	doc := vcr.New("")
	doc.Interactions = interactions
	body, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return append([]byte("---\n"), body...), nil
}

// writeFile writes data to a new file at path (one left there is
// replaced) and syncs it, so the rename that follows never publishes a
// file that is only partly on disk.
func writeFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// removeStale removes the temporary file a killed recording left at path
// and says so on log; nothing when there is none.
func removeStale(path, cassetteFile string, log io.Writer) error {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("cassette %s: remove a stale partial recording %s: %w", cassetteFile, path, err)
	}
	if log != nil {
		fmt.Fprintf(log, "agentvcr: removed %s, a partial recording left by a recording that was killed while saving\n", path)
	}
	return nil
}
