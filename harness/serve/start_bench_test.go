package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchcassette"
)

// BenchmarkServeStart is what `agentvcr serve -cassette FILE` does before
// it prints its URL, on one-reply cassettes of about 52, 104 and 207 MB
// (benchcassette.OneReplyCassette): the file decoded as it is read and its
// reply cut into events. B/op is what a serve holds and allocates for a
// cassette of that size.
func BenchmarkServeStart(b *testing.B) {
	for _, mib := range []int{48, 95, 189} {
		data, err := benchcassette.OneReplyCassette(mib << 20)
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(b.TempDir(), "big.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		size := int64(len(data))
		data = nil
		b.Run(fmt.Sprintf("%dMB", size/1e6), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				router := &CassetteRouter{Cassettes: []ServedCassette{{Name: "big", Path: path}}}
				if _, err := router.Route(""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
