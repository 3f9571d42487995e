package responses

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
)

func BenchmarkMergeResponsesStream(b *testing.B) {
	stream, calls := benchstream.Responses(1 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls || len(turn.Warnings) != 0 {
			b.Fatalf("err %v, %d calls, want %d, warnings %q", err, len(turn.ToolCalls), calls, turn.Warnings)
		}
	}
	b.ReportMetric(float64(bytes.Count(stream, []byte("\n\n"))), "events/op")
	b.ReportMetric(float64(calls), "calls/op")
}

// BenchmarkMergeResponsesStream64MiB is BenchmarkMergeResponsesStream on a
// 64 MiB stream, the size tools/bench/merge_vs_scan.sh measures the mergers
// at.
func BenchmarkMergeResponsesStream64MiB(b *testing.B) {
	stream, calls := benchstream.Responses(64 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls || len(turn.Warnings) != 0 {
			b.Fatalf("err %v, %d calls, want %d, warnings %q", err, len(turn.ToolCalls), calls, turn.Warnings)
		}
	}
}

func TestBenchResponsesStreamMerges(t *testing.T) {
	stream, calls := benchstream.Responses(64 << 10)
	turn, err := Merge(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.ToolCalls) != calls || len(turn.Warnings) != 0 {
		t.Fatalf("%d calls, want %d; warnings %q", len(turn.ToolCalls), calls, turn.Warnings)
	}
	want := []string{`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`, `{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`, `{"path":"src/calc.js","offset":1,"limit":400}`}
	for i, c := range turn.ToolCalls {
		if c.Function.Arguments != want[i%3] || c.ID != fmt.Sprintf("call_%d", i) {
			t.Fatalf("call %d = %+v", i, c)
		}
	}
}
