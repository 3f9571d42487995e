// Command agentvcr runs the agent core, its tools and its record/replay
// harness from the command line. The commands live in internal/cli, so that
// the scenarios drive exactly what this binary runs.
package main

import (
	"os"

	"github.com/agentvcr/agentvcr/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.ProcessEnv(), os.Args[1:]))
}
