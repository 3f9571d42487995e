package cassette

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScanData scans the largest of the repository's recorded demo
// cassettes as a recording's save does, with one configured secret: the
// cost every recording pays once before its file is written.
func BenchmarkScanData(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "demo_bad_args.en.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	s := Secrets{"sk-test-gatewaykey0123456789abcd"}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ScanData(data); err != nil {
			b.Fatal(err)
		}
	}
}
