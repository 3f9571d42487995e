package cli

import (
	"strings"
)

// Capture runs one command line in-process and returns its exit code and
// what it wrote to stdout and stderr: how tests, scenarios and the cassette
// generator run the commands. env.Stdout and env.Stderr are replaced by
// buffers; a nil env.Getenv is an empty environment (nothing of the test
// process's leaks in) and a nil env.Stdin is empty.
func Capture(env Env, args ...string) (code int, stdout, stderr string) {
	var out, errOut strings.Builder
	env.Stdout, env.Stderr = &out, &errOut
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	code = Main(env, args)
	return code, out.String(), errOut.String()
}

// Vars is an Env.Getenv that sees only vars.
func Vars(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}
