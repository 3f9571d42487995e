// Package scenarios is the conformance suite: one testscript txtar file per
// case (category first: accept_, demo_, stream_, tool_, harness_, live_),
// each opening with a comment that says what it reproduces and where that
// shape was seen, plus the metamorphic test (every base cassette through
// every benign quirk transform gives the clean transcript).
//
// go test ./scenarios runs them offline and in parallel.
//
// # Scenario commands
//
// The scenarios are testscript scripts. Besides testscript's own commands
// they have these, each run in-process:
//
//   - agent [flags] [PROMPT]: agentvcr run, in the script's folder and environment
//   - merge [-api F] [FILE]: agentvcr merge (F: auto or a wire format's name; -format is the same flag)
//   - tool [flags] NAME [ARGS_JSON]: agentvcr tool
//   - selftest: agentvcr selftest
//   - sandbox DIR: write the demo repository into DIR
//   - runecount FILE: print FILE's length in runes
//   - quirk [-seed N] NAME IN OUT: apply a quirk to an SSE file, or to every stream of a .yaml cassette
//   - gateway [-key KEY] [-lang zh|en]: start the scripted gateway; sets OPENAI_BASE_URL (and OPENAI_API_KEY to KEY)
//   - serve [flags]: agentvcr serve in the background; sets OPENAI_BASE_URL, and SERVE to its root for case URLs ($SERVE/s/NAME~QUIRK/v1)
//   - upstream FILE...: start a scripted upstream that streams the files' bytes, one per request (the last again); sets UPSTREAM to its base URL
//   - proxy [flags]: agentvcr proxy in the background; sets OPENAI_BASE_URL to its base URL
//   - interrupt NAME: end the background serve or proxy now, as Ctrl-C does, and print its stderr
//   - case SUBCOMMAND [flags]: agentvcr case (new, check, ls)
//   - conform [flags] -- COMMAND [ARGS]: agentvcr conform; $AGENTVCR is agentvcr itself, for COMMAND
//   - genfile [-kind text|oneline|binary|badutf8] PATH N: write a generated file (N runes, bytes or lines)
//   - mkfifo PATH: make a named pipe with no writer
//
// # Flags
//
// go test ./scenarios -update rewrites the golden sections (cmp's second
// argument) inside the txtar files. go test ./scenarios -record re-records
// the cassettes the scenarios replay against the gateway named by
// OPENAI_BASE_URL, OPENAI_API_KEY and AGENTVCR_MODEL; it is refused when
// CI=true. Each `agent -cassette X` becomes a live run recorded where X came
// from: a .yaml file inside the scenario is written back into the txtar, an
// embedded NAME goes to cassettes/NAME.yaml (recorded on a fresh sandbox
// unless -C is given). Commands with -inject or -sse keep replaying: no live
// model reproduces them.
package scenarios
