package messages

import (
	"bytes"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
)

func BenchmarkMergeMessagesStream(b *testing.B) {
	stream, calls := benchstream.Messages(1 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("merged %d calls (want %d): %v", len(turn.ToolCalls), calls, err)
		}
	}
	b.ReportMetric(float64(bytes.Count(stream, []byte("\n\n"))), "events/op")
	b.ReportMetric(float64(calls), "calls/op")
}

// BenchmarkMergeMessagesStream64MiB is BenchmarkMergeMessagesStream on a 64
// MiB stream, the size tools/bench/merge_vs_scan.sh measures the mergers at.
func BenchmarkMergeMessagesStream64MiB(b *testing.B) {
	stream, calls := benchstream.Messages(64 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("merged %d calls (want %d): %v", len(turn.ToolCalls), calls, err)
		}
	}
}
