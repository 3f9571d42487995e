package main

import (
	"fmt"
	"io"
)

// cmdTool is a placeholder until its issue lands.
func cmdTool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "agentvcr tool: not implemented yet")
	return 1
}
