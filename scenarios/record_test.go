package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/agentvcr/agentvcr/demo"
)

// recording is where go test ./scenarios -record records from and to.
type recording struct {
	baseURL, key, model string
	// cassetteDir is where embedded cassettes live (../cassettes).
	cassetteDir string
}

// args turns an `agent` command that replays a cassette into one that
// re-records it live: the gateway, key and model are the recording's, and
// the cassette is written where it came from. An embedded cassette (a NAME)
// is written to cassetteDir/NAME.yaml; a cassette inside the scenario is
// written back into the scenario's txtar (script) once the script ends.
// Goldens that change with the new recording are then refreshed with -update.
//
// Commands that replay a fault variant (-inject) or raw SSE files (-sse), or
// that name no cassette, are left as they are: no live model reproduces them.
func (r *recording) args(ts *testscript.TestScript, script string, args []string) []string {
	if !slices.Contains(args, "-cassette") || slices.Contains(args, "-inject") || slices.Contains(args, "-sse") {
		return args
	}
	ts.Setenv("OPENAI_API_KEY", r.key)
	out := []string{"-base-url", r.baseURL, "-model", r.model}
	for i := 0; i < len(args); i++ {
		if args[i] != "-cassette" || i+1 == len(args) {
			out = append(out, args[i])
			continue
		}
		i++
		name := args[i]
		if !strings.HasSuffix(name, ".yaml") {
			target, err := filepath.Abs(filepath.Join(r.cassetteDir, name+".yaml"))
			ts.Check(err)
			out = append(out, "-record", target)
			if !slices.Contains(args, "-C") {
				// An embedded cassette replays on the sandbox: record on one too.
				sandbox := ts.MkAbs(".sandbox-" + strings.ReplaceAll(name, "/", "_"))
				ts.Check(demo.WriteSandbox(sandbox))
				out = append(out, "-C", sandbox)
			}
			continue
		}
		target := ts.MkAbs(name)
		out = append(out, "-record", target)
		ts.Defer(func() { writeBack(ts, script, name, target) })
	}
	return out
}

// writeBack replaces the archive file name in the scenario script with the
// content of the freshly recorded file.
func writeBack(ts *testscript.TestScript, script, name, recorded string) {
	data, err := os.ReadFile(recorded)
	ts.Check(err)
	ar, err := txtar.ParseFile(script)
	ts.Check(err)
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
		}
	}
	ts.Check(os.WriteFile(script, txtar.Format(ar), 0o644))
}
