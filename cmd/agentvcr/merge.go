package main

import (
	"fmt"
	"io"
)

// cmdMerge is a placeholder until its issue lands.
func cmdMerge(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "agentvcr merge: not implemented yet")
	return 1
}
