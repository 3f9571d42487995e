package main

import (
	"fmt"
	"io"
)

// cmdRun is a placeholder until its issue lands.
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "agentvcr run: not implemented yet")
	return 1
}
