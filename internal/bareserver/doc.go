// Package bareserver is the floor `agentvcr serve`'s default mode is
// measured against (the serve ÷ bare column of docs/reliability.md): Handler writes a
// recorded reply's events as a plain net/http handler does, each flushed but
// the last, with the headers serve sends for a stream, and does nothing else
// (no matching, no journal).
// BenchmarkServe (harness/serve) and internal/servebench -bare-serve use it.
package bareserver
