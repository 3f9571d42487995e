package cli

import (
	"fmt"
)

// Main runs one agentvcr command line (without the program name) and returns
// the process exit code: 0 success, 1 failure, 2 usage error.
func Main(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(env, args[1:])
	case "merge":
		return cmdMerge(env, args[1:])
	case "tool":
		return cmdTool(env, args[1:])
	case "selftest":
		return cmdSelftest(env, args[1:])
	case "serve":
		return cmdServe(env, args[1:])
	case "record":
		return cmdRecord(env, args[1:])
	case "proxy":
		return cmdProxy(env, args[1:])
	case "conform":
		return cmdConform(env, args[1:])
	case "report":
		return cmdReport(env, args[1:])
	case "case":
		return cmdCase(env, args[1:])
	case "version":
		return cmdVersion(env, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, usage)
		return 0
	default:
		fmt.Fprintf(env.Stderr, "agentvcr: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

const usage = `usage: agentvcr <command> [flags] [args]

commands:
  run       run the agent: the offline demo by default, or live against a gateway
  merge     merge a raw SSE stream (chat completions, Anthropic Messages, Responses) into one turn (JSON)
  tool      run one tool through the same entry the agent loop uses
  selftest  run the lesson's seven checks
  serve     serve cassettes as an OpenAI-compatible endpoint, with quirks and faults
  record    a recording proxy: forward any agent's requests and save them as a cassette
  proxy     chaos on live traffic: forward an agent's requests and break the streamed answers with a quirk or fault
  conform   run the quirk catalog against any agent: agentvcr conform -- COMMAND
  report    merge conform's JSON reports of a sharded run, or write one as Markdown
  case      check and list your own conform cases (case files: conform -cases DIR)
  version   print the module version and commit agentvcr was built from

Run 'agentvcr <command> -h' for a command's flags.
`
