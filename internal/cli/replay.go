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
// recorded: the file (or the embedded cassette) is read and decoded once; a
// file's answers are read from it as they are served (cassette.Open), an
// embedded cassette's from its decoded copy (cassette.Replay). cleanup
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
	opts := cassette.Options{Name: strings.TrimSuffix(filepath.Base(name), ".yaml"), Rechunk: rc}
	c, err := openCassette(env, name, lang, opts)
	if err != nil {
		return nil, cassette.Recording{}, nil, err
	}
	rec, err := c.Recording()
	if err != nil {
		c.Discard()
		return nil, cassette.Recording{}, nil, err
	}
	return c, rec, c.Stop, nil
}

// openCassette opens a cassette for replay: a .yaml path on disk, or an
// embedded name ("demo", "quirks/demo.interleave"), in the locale's variant
// ("demo.en"), decoded from the binary's own bytes.
func openCassette(env Env, name string, lang tools.Lang, opts cassette.Options) (*cassette.Cassette, error) {
	if strings.HasSuffix(name, ".yaml") {
		return cassette.Open(env.path(name), cassette.ModeReplay, nil, opts)
	}
	file := cassette.File(name, lang)
	data, err := fs.ReadFile(cassettes.FS, file)
	if errors.Is(err, fs.ErrNotExist) {
		for _, other := range []tools.Lang{tools.ZH, tools.EN} {
			if other == lang {
				continue
			}
			if _, oerr := fs.Stat(cassettes.FS, cassette.File(name, other)); oerr == nil {
				return nil, fmt.Errorf("the embedded cassette %q is recorded in %s only (no %s): run it with -lang %s", name, other, file, other)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("no embedded cassette %q (%s): %w; list them with 'agentvcr run -h' or pass a .yaml path", name, file, err)
	}
	loaded, err := cassette.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w", file, err)
	}
	return cassette.Replay(file, loaded, opts), nil
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
