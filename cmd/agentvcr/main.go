package main

import (
	"os"

	"github.com/agentvcr/agentvcr/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.ProcessEnv(), os.Args[1:]))
}
