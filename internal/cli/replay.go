package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"

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
// recorded: the file (or the embedded cassette) is read and decoded once,
// and its bodies are served from that one copy (cassette.Replay). cleanup
// stops the cassette, reporting unused interactions.
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
	path, loaded, err := loadCassette(env, name, lang)
	if err != nil {
		return nil, cassette.Recording{}, nil, err
	}
	rec, err := cassette.RecordingOf(path, loaded)
	if err != nil {
		return nil, cassette.Recording{}, nil, err
	}
	c := cassette.Replay(path, loaded, cassette.Options{Name: strings.TrimSuffix(filepath.Base(name), ".yaml"), Rechunk: rc})
	return c, rec, c.Stop, nil
}

// loadCassette reads and decodes a cassette: a .yaml path on disk, or an
// embedded name ("demo", "quirks/demo.interleave"), in the locale's variant
// ("demo.en"), decoded from the binary's own bytes. path is what errors
// call it.
func loadCassette(env Env, name string, lang tools.Lang) (path string, c *vcr.Cassette, err error) {
	if strings.HasSuffix(name, ".yaml") {
		path = env.path(name)
		c, err = cassette.Load(path)
		return path, c, err
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
	if c, err = cassette.Decode(data); err != nil {
		return "", nil, fmt.Errorf("cassette %s: %w", file, err)
	}
	return file, c, nil
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
