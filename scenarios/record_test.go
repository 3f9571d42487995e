package scenarios

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
)

// recordArgs turns an `agent` command that replays a cassette into one that
// re-records it live (go test ./scenarios -record): the gateway, key and
// model come from the environment of `go test`, and the cassette is written
// where it came from. An embedded cassette (a NAME) is written to
// ../cassettes/NAME.yaml; a cassette inside the scenario is written back into
// the scenario's txtar once the script ends. Goldens that change with the new
// recording are then refreshed with -update.
func recordArgs(ts *testscript.TestScript, args []string) []string {
	ts.Setenv("OPENAI_API_KEY", ts.Getenv("RECORD_OPENAI_API_KEY"))
	out := []string{"-base-url", ts.Getenv("RECORD_OPENAI_BASE_URL"), "-model", ts.Getenv("RECORD_AGENTVCR_MODEL")}
	for i := 0; i < len(args); i++ {
		if args[i] != "-cassette" || i+1 == len(args) {
			out = append(out, args[i])
			continue
		}
		i++
		name := args[i]
		if !strings.HasSuffix(name, ".yaml") {
			target, err := filepath.Abs(filepath.Join("..", "cassettes", name+".yaml"))
			ts.Check(err)
			out = append(out, "-record", target)
			continue
		}
		target := ts.MkAbs(name)
		out = append(out, "-record", target)
		script := ts.Name() + ".txtar"
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
