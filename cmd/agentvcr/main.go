// Command agentvcr runs the agent core, its tools and its record/replay harness
// from the command line. See doc.go for the subcommands.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
// It is separate from main so tests can drive the command in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdin, stdout, stderr)
	case "tool":
		return cmdTool(args[1:], stdin, stdout, stderr)
	case "selftest":
		return cmdSelftest(args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "agentvcr: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

const usage = `usage: agentvcr <command> [flags] [args]

commands:
  run       run the agent: the offline demo by default, or live against a gateway
  merge     merge a raw chat-completions SSE stream into one turn (JSON)
  tool      run one tool through the same entry the agent loop uses
  selftest  run the lesson's seven checks

Run 'agentvcr <command> -h' for a command's flags.
`
