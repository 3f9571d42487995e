package scenarios

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/harness/quirk"
)

// cmdQuirk applies one quirk transform to a clean stream or cassette:
//
//	quirk [-seed N] NAME IN OUT
//
// IN is a raw SSE file, or a go-vcr cassette when it ends in .yaml (every
// SSE response in it is transformed). OUT is written.
func cmdQuirk(ts *testscript.TestScript, neg bool, args []string) error {
	fs := flag.NewFlagSet("quirk", flag.ContinueOnError)
	seed := fs.Int64("seed", 1, "the seed of the transform's choices")
	if neg || fs.Parse(args) != nil || fs.NArg() != 3 {
		return errUsage
	}
	q, ok := quirk.ByName(fs.Arg(0))
	if !ok {
		return fmt.Errorf("no quirk named %q", fs.Arg(0))
	}
	in := []byte(ts.ReadFile(fs.Arg(1)))
	var (
		out []byte
		err error
	)
	if strings.HasSuffix(fs.Arg(1), ".yaml") {
		out, err = quirk.ApplyToCassette(in, q, *seed)
	} else {
		out, err = q.Apply(in, *seed)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(ts.MkAbs(fs.Arg(2)), out, 0o644)
}
