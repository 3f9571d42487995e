package chat

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
)

func BenchmarkMergeStream(b *testing.B) {
	stream, calls := benchstream.Chat(1 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("err %v, %d calls, want %d", err, len(turn.ToolCalls), calls)
		}
	}
	b.ReportMetric(float64(bytes.Count(stream, []byte("\n\n"))), "chunks/op")
	b.ReportMetric(float64(calls), "calls/op")
}

func TestBenchStreamMerges(t *testing.T) {
	stream, calls := benchstream.Chat(64 << 10)
	turn, err := Merge(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(turn.ToolCalls) != calls {
		t.Fatalf("%d calls, want %d", len(turn.ToolCalls), calls)
	}
	want := []string{`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`, `{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`, `{"path":"src/calc.js","offset":1,"limit":400}`}
	for i, c := range turn.ToolCalls {
		if c.Function.Arguments != want[i%3] || c.ID != fmt.Sprintf("call_%d", i) {
			t.Fatalf("call %d = %+v", i, c)
		}
	}
	if !strings.HasSuffix(string(stream), "[DONE]\n\n") {
		t.Fatal("stream does not end in [DONE]")
	}
}

// BenchmarkMergeTurn merges a turn of the size a model sends: three calls
// (one round of benchstream.Chat), about 7 KB.
func BenchmarkMergeTurn(b *testing.B) {
	stream, calls := benchstream.Chat(1)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("err %v, %d calls, want %d", err, len(turn.ToolCalls), calls)
		}
	}
}

// BenchmarkMergeStream64MiB is BenchmarkMergeStream on a 64 MiB stream, the
// size tools/bench/merge_vs_scan.sh measures the mergers at.
func BenchmarkMergeStream64MiB(b *testing.B) {
	stream, calls := benchstream.Chat(64 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("err %v, %d calls, want %d", err, len(turn.ToolCalls), calls)
		}
	}
}
