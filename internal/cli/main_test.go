package cli

import (
	"io"
	"os"
)

// run drives Main the way the agentvcr binary does, with the test process's
// folder and environment.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return Main(Env{Dir: dir, Getenv: os.Getenv, Stdin: stdin, Stdout: stdout, Stderr: stderr}, args)
}
