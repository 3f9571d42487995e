// Package conformtest runs agentvcr conform from go test: for agent
// builders who write their agent in Go, `go test ./...` in their CI is the
// conformance run.
//
// # Use (run.go)
//
//	func TestConform(t *testing.T) {
//		conformtest.Run(t, conformtest.Options{
//			Agent:    myAgent, // a conform.AgentFunc
//			API:      "chat",
//			Baseline: "testdata/conform-baseline.txt",
//		})
//	}
//
// Run runs the catalog of the format API names (conform's -api; "" is
// chat completions) against Options.Agent, a conform.AgentFunc called in
// the test's process once per case, or against Options.Command, started
// once per case as agentvcr conform starts one. The agent function gets
// the case's variables as NAME=VALUE (each format's base URL and key
// variable, AGENTVCR_CASE), writes what a command would print to the two
// writers, returns its exit code, and must return when its context is
// done (the case was decided, or timed out). Cases, Calls, Parallel,
// Timeout and StallTimeout are conform's -case, -call, -p, -timeout and
// -stall-timeout; StallTimeout's default is six minutes, so give an agent
// whose own stall limit is shorter a StallTimeout just above it.
// CaseDirs are conform's -cases: folders of your own case files (.txtar,
// conform.ReadCaseFiles), run beside the catalog under their own ids; a
// bad file ends the test at once with the line naming it.
//
// # What each case becomes
//
// When the catalog has run, each case is a subtest named by its id
// (go test -run 'TestConform/truncated' shows one):
//
//   - SUCCESS passes, with the verdict's details in the log (-v);
//   - WARNING passes too, logged as "WARNING: details" (conform's exit
//     status does not fail on one either);
//   - FAILURE fails with the case's one-line description, the verdict's
//     details and, when a request differs from what the case wants, the
//     first difference as a diff (-want +got);
//   - a case conform SKIPPED (its transform changes none of the replies
//     the agent asked for) is skipped with that reason.
//
// # The baseline (baseline.go)
//
// Options.Baseline is a file of the cases the agent is known to fail, the
// format of conform's -baseline and of agentvcr's .ci/baselines: one case
// id per line, '#' starts a comment. A listed case that fails is skipped,
// with its reason: the comment on its line, else the comment lines right
// above it. A listed case that passes fails its subtest, naming the entry
// to remove, so a baseline only ever shrinks. A file conform would refuse
// (an id that is no case, one listed twice) ends the test at once, as do
// an unknown format, case or call, and an agent whose tools the probe
// cannot call (conform.ErrNoReadOnlyTool, conform.ErrUnknownCall, or
// conform.ErrWrongPath for an agent that speaks another format).
//
// agentvcr runs its own agent through it, in process, in every format of
// wire.All, with the baselines its CI uses (conformtest_test.go).
package conformtest
