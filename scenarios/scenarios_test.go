package scenarios

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/harness"
	"github.com/agentvcr/agentvcr/internal/cli"
)

var (
	update = flag.Bool("update", false, "rewrite the golden sections of the scenarios (cmp's second argument)")
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
		UpdateScripts:       *update,
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
			return nil
		},
		Cmds: s.commands(),
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

// commands are the scenario commands, documented in harness/doc.go
// ("Scenario commands"); TestCommandsDocumented keeps the two in step.
func (s suite) commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"agent":     s.cliCommand("run"),
		"merge":     s.cliCommand("merge"),
		"tool":      s.cliCommand("tool"),
		"selftest":  s.cliCommand("selftest"),
		"sandbox":   cmdSandbox,
		"runecount": cmdRunecount,
		"quirk":     cmdQuirk,
		"gateway":   cmdGateway,
		"genfile":   cmdGenfile,
		"mkfifo":    cmdMkfifo,
	}
}

// cliCommand runs one agentvcr subcommand in-process, in the script's folder
// and environment, with its output on the script's stdout and stderr.
func (s suite) cliCommand(sub string) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if sub == "run" && s.record != nil {
			args = s.record.args(ts, filepath.Join(s.dir, ts.Name()+".txtar"), args)
		}
		env := cli.Env{
			Dir:    ts.MkAbs("."),
			Getenv: ts.Getenv,
			Stdin:  strings.NewReader(""),
			Stdout: ts.Stdout(),
			Stderr: ts.Stderr(),
		}
		code := cli.Main(env, append([]string{sub}, args...))
		switch {
		case neg && code == 0:
			ts.Fatalf("agentvcr %s succeeded unexpectedly", sub)
		case !neg && code != 0:
			ts.Fatalf("agentvcr %s exited %d", sub, code)
		}
	}
}

// cmdSandbox writes the demo repository into a folder: sandbox DIR.
func cmdSandbox(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sandbox DIR")
	}
	ts.Check(harness.WriteSandbox(ts.MkAbs(args[0])))
}

// cmdRunecount prints a file's length in runes: runecount FILE.
func cmdRunecount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: runecount FILE")
	}
	fmt.Fprintf(ts.Stdout(), "%d\n", utf8.RuneCountInString(ts.ReadFile(args[0])))
}

// TestCommandsDocumented keeps harness/doc.go's list of scenario commands in
// step with the commands registered here.
func TestCommandsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "harness", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	inList := false
	for _, line := range bytes.Split(doc, []byte("\n")) {
		s := strings.TrimPrefix(string(line), "//")
		switch {
		case s == " # Scenario commands":
			inList = true
		case inList && strings.HasPrefix(s, " # "):
			inList = false
		case inList && strings.HasPrefix(s, "   - "):
			name, _, _ := strings.Cut(strings.TrimPrefix(s, "   - "), " ")
			documented[strings.TrimSuffix(name, ":")] = true
		}
	}
	for name := range (suite{}).commands() {
		if !documented[name] {
			t.Errorf("scenario command %q is not documented in harness/doc.go", name)
		}
		delete(documented, name)
	}
	for name := range documented {
		t.Errorf("harness/doc.go documents scenario command %q, which does not exist", name)
	}
}
