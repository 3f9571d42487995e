package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/internal/benchcassette"
)

// oneReplyCassette writes a cassette of about mib MiB to dir
// (benchcassette.OneReplyCassette: the demo's first request, answered by one
// long text stream) and returns the file's path.
func oneReplyCassette(tb testing.TB, dir string, mib int) string {
	tb.Helper()
	data, err := benchcassette.OneReplyCassette(mib << 20)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("big%d.yaml", mib))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkReplayOneReply is `agentvcr run -cassette` of a one-reply
// cassette of 13, 26 and 52 MiB, its output discarded: B/op is what the
// replay allocates for a cassette of that size.
func BenchmarkReplayOneReply(b *testing.B) {
	ws := b.TempDir()
	if err := demo.WriteSandbox(ws); err != nil {
		b.Fatal(err)
	}
	for _, mib := range []int{13, 26, 52} {
		path := oneReplyCassette(b, b.TempDir(), mib)
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(mib) << 20)
			for b.Loop() {
				var stderr strings.Builder
				env := Env{Dir: ".", Getenv: Vars(nil), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr}
				if code := Main(env, []string{"run", "-cassette", path, "-C", ws}); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}
