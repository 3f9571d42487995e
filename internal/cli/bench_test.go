package cli

import (
	"testing"

	"github.com/agentvcr/agentvcr/demo"
)

// BenchmarkRunDemo is the main job end to end, minus writing the sandbox:
// agentvcr run replays the embedded demo cassette (four requests, three
// tool calls, re-chunked at random) on a sandbox written once.
func BenchmarkRunDemo(b *testing.B) {
	dir := b.TempDir()
	if err := demo.WriteSandbox(dir); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if code, _, stderr := Capture(Env{Dir: "."}, "run", "-C", dir); code != 0 {
			b.Fatalf("exit %d: %s", code, stderr)
		}
	}
}
