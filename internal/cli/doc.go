// Package cli holds the agentvcr commands: run (the agent loop, offline
// demo, replay, live and record), merge, tool, selftest, serve, record,
// proxy (quirks and faults on an agent's live traffic, through
// harness/chaos), conform (the quirk catalog against any agent's command,
// through harness/conform) and version (the module version and commit,
// from runtime/debug.ReadBuildInfo).
//
// Main takes an Env (folder, environment, streams, colour, transport)
// instead of reading the process's own, so the scenarios drive exactly what
// the binary runs, in-process and in parallel, and the cassette generator
// records through the same path a user records a live gateway with. It lives
// here rather than in cmd/agentvcr because Go cannot import a main package.
//
// Exit codes: 0 success (a tool's failure result is a success: it was fed
// back), 1 failure, 2 usage error, 130 or 143 when SIGINT or SIGTERM stopped
// a run (signal.go: the first cancels it and its cleanup runs, a second
// exits at once after removing the temporary folders; only the real process
// handles signals, Env.HandleSignals). Errors go to stderr as one line that
// says what to do; a replay miss keeps its diff. Everything a workspace or a
// model wrote reaches the terminal through visible: control characters are
// shown escaped, never raw.
//
// A live run goes through agent.LiveTransport with -header-timeout,
// -idle-timeout and -retries, under the recorder when -record is given.
package cli
