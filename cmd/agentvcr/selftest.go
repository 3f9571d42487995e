package main

import (
	"fmt"
	"io"
)

// cmdSelftest is a placeholder until its issue lands.
func cmdSelftest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "agentvcr selftest: not implemented yet")
	return 1
}
