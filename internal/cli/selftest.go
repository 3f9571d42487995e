package cli

import "fmt"

func cmdSelftest(env Env, args []string) int {
	fmt.Fprintln(env.Stderr, "agentvcr selftest: not implemented yet")
	return 1
}
