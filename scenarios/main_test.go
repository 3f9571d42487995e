package scenarios

import (
	"os"
	"testing"

	"github.com/agentvcr/agentvcr/internal/cli"
)

// asAgentvcr makes the test binary run agentvcr itself when set: a
// scenario's conform needs a command to run (COMMAND is $AGENTVCR), and
// this binary holds the code under test.
const asAgentvcr = "AGENTVCR_SCENARIOS_RUN_AS_MAIN"

// agentvcrExe is the path of this test binary, which scenarios see as
// $AGENTVCR.
var agentvcrExe string

func TestMain(m *testing.M) {
	if os.Getenv(asAgentvcr) == "1" {
		os.Exit(cli.Main(cli.ProcessEnv(), os.Args[1:]))
	}
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	agentvcrExe = exe
	// Set once here, not per script: conform starts its agents with the
	// process's environment (less credentials), not the script's.
	os.Setenv(asAgentvcr, "1")
	os.Exit(m.Run())
}
