package scenarios

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/internal/cli"
	"github.com/agentvcr/agentvcr/internal/golden"
)

// A command is one scenario command: how it is called, what it does, and
// the function testscript runs. Usage and Summary are the command's
// documentation; scenarios/doc.go shows them and TestCommandsDocumented
// keeps it in step.
type command struct {
	name string
	// usage is the command line, name first, as a usage error prints it.
	usage string
	// summary says what the command does, in one line.
	summary string
	run     func(ts *testscript.TestScript, neg bool, args []string) error
}

// errUsage is returned by a command called with arguments it does not take;
// the scenario then fails with the command's usage line.
var errUsage = errors.New("usage")

// commands are the scenario commands, in the order doc.go lists them.
func (s suite) commands() []command {
	return []command{
		{"agent", "agent [flags] [PROMPT]", "agentvcr run, in the script's folder and environment", s.cliCommand("run")},
		{"merge", "merge [-api F] [FILE]", "agentvcr merge (F: auto or a wire format's name; -format is the same flag)", s.cliCommand("merge")},
		{"tool", "tool [flags] NAME [ARGS_JSON]", "agentvcr tool", s.cliCommand("tool")},
		{"selftest", "selftest", "agentvcr selftest", s.cliCommand("selftest")},
		{"sandbox", "sandbox DIR", "write the demo repository into DIR", cmdSandbox},
		{"runecount", "runecount FILE", "print FILE's length in runes", cmdRunecount},
		{"quirk", "quirk [-seed N] NAME IN OUT", "apply a quirk to an SSE file, or to every stream of a .yaml cassette", cmdQuirk},
		{"gateway", "gateway [-key KEY] [-lang zh|en]", "start the scripted gateway; sets OPENAI_BASE_URL (and OPENAI_API_KEY to KEY)", cmdGateway},
		{"serve", "serve [flags]", "agentvcr serve in the background; sets OPENAI_BASE_URL, and SERVE to its root for case URLs ($SERVE/s/NAME~QUIRK/v1)", inBackground("serve", "SERVE", cli.Serve)},
		{"upstream", "upstream FILE...", "start a scripted upstream that streams the files' bytes, one per request (the last again); sets UPSTREAM to its base URL", cmdUpstream},
		{"proxy", "proxy [flags]", "agentvcr proxy in the background; sets OPENAI_BASE_URL to its base URL", inBackground("proxy", "", cli.Proxy)},
		{"interrupt", "interrupt NAME", "end the background serve or proxy now, as Ctrl-C does, and print its stderr", cmdInterrupt},
		{"case", "case SUBCOMMAND [flags]", "agentvcr case (new, check, ls)", s.cliCommand("case")},
		{"conform", "conform [flags] -- COMMAND [ARGS]", "agentvcr conform; $AGENTVCR is agentvcr itself, for COMMAND", s.cliCommand("conform")},
		{"genfile", "genfile [-kind text|oneline|binary|badutf8] PATH N", "write a generated file (N runes, bytes or lines)", cmdGenfile},
		{"mkfifo", "mkfifo PATH", "make a named pipe with no writer", cmdMkfifo},
	}
}

// testscriptCmds are the commands as testscript.Params.Cmds: a usage error
// fails the scenario with the command's usage line, any other error with
// the command's name.
func (s suite) testscriptCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){}
	for _, c := range s.commands() {
		cmds[c.name] = func(ts *testscript.TestScript, neg bool, args []string) {
			switch err := c.run(ts, neg, args); {
			case errors.Is(err, errUsage):
				ts.Fatalf("usage: %s", c.usage)
			case err != nil:
				ts.Fatalf("%s: %v", c.name, err)
			}
		}
	}
	return cmds
}

// cmdSandbox writes the demo repository into a folder.
func cmdSandbox(ts *testscript.TestScript, neg bool, args []string) error {
	if neg || len(args) != 1 {
		return errUsage
	}
	return demo.WriteSandbox(ts.MkAbs(args[0]))
}

// cmdRunecount prints a file's length in runes.
func cmdRunecount(ts *testscript.TestScript, neg bool, args []string) error {
	if neg || len(args) != 1 {
		return errUsage
	}
	_, err := fmt.Fprintf(ts.Stdout(), "%d\n", utf8.RuneCountInString(ts.ReadFile(args[0])))
	return err
}

// commandsDoc is the list of scenario commands as doc.go shows it, made
// from the commands' usage and summary.
func commandsDoc(cmds []command) string {
	var b strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&b, "//   - %s: %s\n", c.usage, c.summary)
	}
	return b.String()
}

// The list of commands in doc.go sits between these two lines.
const (
	commandsDocStart = "// # Scenario commands\n//\n// The scenarios are testscript scripts. Besides testscript's own commands\n// they have these, each run in-process:\n//\n"
	commandsDocEnd   = "//\n// # Flags"
)

// TestCommandsDocumented: doc.go lists every scenario command, with the
// usage and summary the code gives it, in the code's order. -update
// rewrites the list.
func TestCommandsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := strings.Cut(string(doc), commandsDocStart)
	if !ok {
		t.Fatalf("doc.go has no %q", commandsDocStart)
	}
	got, after, ok := strings.Cut(rest, commandsDocEnd)
	if !ok {
		t.Fatalf("doc.go has no %q after the commands", commandsDocEnd)
	}
	cmds := (suite{}).commands()
	want := commandsDoc(cmds)
	if golden.Updating() && got != want {
		if err := os.WriteFile("doc.go", []byte(before+commandsDocStart+want+commandsDocEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("doc.go's scenario commands differ from the code (-code +doc.go); go test ./scenarios -run TestCommandsDocumented -update rewrites them:\n%s", diff)
	}
	names := map[string]bool{}
	for _, c := range cmds {
		if names[c.name] {
			t.Errorf("scenario command %q defined twice", c.name)
		}
		names[c.name] = true
		if first, _, _ := strings.Cut(c.usage, " "); first != c.name {
			t.Errorf("scenario command %q: usage %q must start with the name", c.name, c.usage)
		}
		if c.summary == "" || c.run == nil {
			t.Errorf("scenario command %q needs a summary and a function", c.name)
		}
	}
}
