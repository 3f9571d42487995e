// Package conform runs the quirk catalog against any agent, in any
// language, and checks the request the agent sends back after each broken
// stream shape.
//
// # How a run goes (run.go, process.go)
//
// Run starts one harness.Server on loopback and runs the agent's command
// once per case, with OPENAI_BASE_URL set to the case's scenario URL
// (http://127.0.0.1:PORT/s/<case>/v1), OPENAI_API_KEY to DummyKey and
// AGENTVCR_CASE to the case's id. Each run is bounded by Options.Timeout;
// at the deadline the agent's whole process group is killed. The clean case
// runs first and alone, the others Options.Parallel at a time.
//
// # The probe (probe.go, conversation.go)
//
// From a case's first request conform reads the tools the agent offers and
// builds one model turn: a short text, then two calls in parallel. The tools
// are those named by -call (CallSpec), else the first two whose names say
// they only read (a word of the name is read, view, cat, list, ls, glob,
// find, grep or search); one such tool is called twice; none is
// ErrNoReadOnlyTool, which names the tools offered. Arguments not given are
// generated from the tool's JSON Schema (GenerateArguments): required
// members, strings carrying a quote, a backslash and CJK text. The request
// that carries one assistant message (or more) is answered with a short
// conclusion.
//
// # Cases (case.go, broken.go)
//
// Each case serves the clean turn through one transform: every quirk of
// harness.Quirks (applied to every turn), the two broken streams
// midstream_error and truncated (the tool turn breaks inside its second
// call, on every attempt), and the faults (429 with Retry-After, 500, stall,
// reset) on the case's first request only, reported as their own tier.
//
// # Checks (check.go)
//
// Checks read requests through a Format (ChatCompletions today), so another
// wire format plugs in with a reader of its own. On a benign quirk the
// first assistant message of every follow-up request must re-send the
// merged calls (names, arguments equal as JSON, order; ids equal to the
// stream's unless the stream dropped them), with non-empty unique ids that
// stay the same in later requests; every call must be answered by exactly
// one tool message before any other message; the agent must exit 0. After a
// broken stream no request may carry an assistant or tool message the
// first request did not (a retry is fine), and the agent must not exit 0.
// After a fault the agent may give up or retry and finish, but not exit 0
// without finishing, send on what the fault cut, or hang (a stall it does
// not give up on within the timeout fails). A 429 it does not wait out is a
// WARNING.
//
// # Reports (report_*.go, baseline.go)
//
// WriteTable, WriteJSON (an array of checks shaped like MCP's conformance
// checks) and WriteJUnit report the Results. A Baseline lists expected
// failures: Judge returns the failures it does not list and the entries
// whose case now passes (stale), both of which fail a run.
package conform
