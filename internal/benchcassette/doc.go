// Package benchcassette builds the cassettes replay and serve memory are
// measured on (the figures are in docs/reliability.md):
// OneReplyCassette(size) is the demo cassette's first request answered by
// one chat-completions text stream of about size bytes.
// BenchmarkReplayOneReply (internal/cli), BenchmarkServeStart
// (harness/serve) and tools/bench/gencassette use it.
//
// It is apart from internal/benchstream, the merger benchmarks' streams,
// because it imports harness/cassette, which imports every wire format: the
// formats' own benchmarks could not import it.
package benchcassette
