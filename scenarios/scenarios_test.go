package scenarios

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/internal/golden"
)

var (
	record = flag.Bool("record", false, "re-record the cassettes the scenarios replay, against the gateway named by OPENAI_BASE_URL, OPENAI_API_KEY and AGENTVCR_MODEL")
)

// TestScenarios runs every scenario (*.txtar in this folder) with testscript.
func TestScenarios(t *testing.T) {
	s := suite{dir: "."}
	if *record {
		if err := recordAllowed(os.Getenv); err != nil {
			t.Fatal(err)
		}
		s.record = &recording{
			baseURL:     os.Getenv("OPENAI_BASE_URL"),
			key:         os.Getenv("OPENAI_API_KEY"),
			model:       os.Getenv("AGENTVCR_MODEL"),
			cassetteDir: filepath.Join("..", "cassettes"),
		}
	}
	testscript.Run(t, s.params())
}

// A suite is a folder of scenarios and how to run them.
type suite struct {
	dir    string
	record *recording // nil: replay, as always in CI
}

// params are the testscript parameters of the suite.
func (s suite) params() testscript.Params {
	return testscript.Params{
		Dir:                 s.dir,
		UpdateScripts:       golden.Updating(),
		RequireUniqueNames:  true,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// Scenarios see a fixed environment: no colour, the zh locale, and no
			// live gateway unless a scenario starts the scripted one.
			env.Setenv("NO_COLOR", "1")
			env.Setenv("AGENTVCR_LANG", "")
			env.Setenv("OPENAI_BASE_URL", "")
			env.Setenv("OPENAI_API_KEY", "")
			env.Setenv("AGENTVCR_MODEL", "")
			env.Setenv("CI", "")
			env.Setenv("INJECT", "")
			env.Setenv("AGENTVCR", agentvcrExe)
			env.Values[backgroundKey{}] = &background{running: map[string]func() string{}}
			if s.record == nil {
				// The scripted gateway's refusals (live_5xx, live_unreachable)
				// are retried as a user's are, 1 ms apart instead of 0.5 s
				// and 1 s (run's -retry-backoff).
				env.Setenv("AGENTVCR_RETRY_BACKOFF", "1ms")
			}
			return nil
		},
		Cmds: s.testscriptCmds(),
	}
}

// recordAllowed refuses -record in CI and without a gateway to record from.
func recordAllowed(getenv func(string) string) error {
	if getenv("CI") == "true" {
		return fmt.Errorf("-record is refused when CI=true: cassettes are recorded by a person, against a gateway they chose")
	}
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "AGENTVCR_MODEL"} {
		if getenv(k) == "" {
			return fmt.Errorf("-record needs %s: set OPENAI_BASE_URL, OPENAI_API_KEY and AGENTVCR_MODEL to the gateway to record from", k)
		}
	}
	return nil
}

// cliCommand runs one agentvcr subcommand in-process, in the script's folder
// and environment, with its output on the script's stdout and stderr.
func (s suite) cliCommand(sub string) func(ts *testscript.TestScript, neg bool, args []string) error {
	return func(ts *testscript.TestScript, neg bool, args []string) error {
		if sub == "run" && s.record != nil {
			args = s.record.args(ts, filepath.Join(s.dir, ts.Name()+".txtar"), args)
		}
		code, stdout, stderr := cli.Capture(cli.Env{Dir: ts.MkAbs("."), Getenv: ts.Getenv}, append([]string{sub}, args...)...)
		fmt.Fprint(ts.Stdout(), stdout)
		fmt.Fprint(ts.Stderr(), stderr)
		switch {
		case neg && code == 0:
			return fmt.Errorf("agentvcr %s succeeded unexpectedly", sub)
		case !neg && code != 0:
			return fmt.Errorf("agentvcr %s exited %d", sub, code)
		}
		return nil
	}
}
