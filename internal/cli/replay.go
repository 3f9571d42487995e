package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/cassettes"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// injections maps -inject kinds to the demo variant cassette with that fault.
var injections = map[string]string{
	"bad_args":     demo.ScriptBadArgs,
	"unknown_tool": demo.ScriptUnknownTool,
}

// openReplay opens the cassette the flags name for replay and reads what it
// recorded. An embedded cassette is copied to a temporary file first (go-vcr
// reads cassettes from disk); cleanup stops the cassette (reporting unused
// interactions) and removes the copy.
func openReplay(env Env, f runFlags, api *agent.Format, lang tools.Lang, rc rechunk.Cutter) (*cassette.Cassette, cassette.Recording, func() error, error) {
	name := f.cassette
	if f.inject != "" {
		name = injections[f.inject] // checked by checkInject
	}
	if name == "" {
		name = demo.ScriptDemo
	}
	if f.cassette == "" && api != nil && api != chat.Format {
		name = api.Name + "/" + name // the demo recorded in that format
	}
	path, remove, err := cassettePath(env, name, lang)
	if err != nil {
		return nil, cassette.Recording{}, nil, err
	}
	rec, err := cassette.ReadRecording(path)
	if err != nil {
		remove()
		return nil, cassette.Recording{}, nil, err
	}
	c, err := cassette.Open(path, cassette.ModeReplay, nil, cassette.Options{Name: strings.TrimSuffix(filepath.Base(name), ".yaml"), Rechunk: rc})
	if err != nil {
		remove()
		return nil, cassette.Recording{}, nil, err
	}
	return c, rec, func() error { return errors.Join(c.Stop(), remove()) }, nil
}

// cassettePath finds a cassette: a .yaml path on disk, or an embedded name
// ("demo", "quirks/demo.interleave"), in the locale's variant ("demo.en").
func cassettePath(env Env, name string, lang tools.Lang) (path string, remove func() error, err error) {
	none := func() error { return nil }
	if strings.HasSuffix(name, ".yaml") {
		return env.path(name), none, nil
	}
	file := cassette.File(name, lang)
	data, err := fs.ReadFile(cassettes.FS, file)
	if errors.Is(err, fs.ErrNotExist) {
		for _, other := range []tools.Lang{tools.ZH, tools.EN} {
			if other == lang {
				continue
			}
			if _, oerr := fs.Stat(cassettes.FS, cassette.File(name, other)); oerr == nil {
				return "", nil, fmt.Errorf("the embedded cassette %q is recorded in %s only (no %s): run it with -lang %s", name, other, file, other)
			}
		}
	}
	if err != nil {
		return "", nil, fmt.Errorf("no embedded cassette %q (%s): %w; list them with 'agentvcr run -h' or pass a .yaml path", name, file, err)
	}
	dir, err := env.mkdirTemp("agentvcr-cassette-")
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, filepath.Base(file))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return path, func() error { return os.RemoveAll(dir) }, nil
}

// detectFile names the format of a raw SSE file from its first event
// (wire.Detect); chat completions when it cannot be read (the replay
// then reports the read error).
func detectFile(path string) *agent.Format {
	f, err := os.Open(path)
	if err != nil {
		return chat.Format
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	return wire.Detect(head[:n])
}
