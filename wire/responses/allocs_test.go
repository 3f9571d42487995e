package responses

import (
	"bytes"
	"testing"

	"github.com/agentvcr/agentvcr/internal/benchstream"
)

// TestMergeAllocationsPerCall: a call costs the merger no allocation of its
// own: its item, its argument buffer and its ids come from slabs, its
// arguments in the turn are slices of one string, so merging 765 calls more
// costs fewer than one allocation per 16 calls (map growth, new slabs).
// Before the slabs, each call cost 11.
func TestMergeAllocationsPerCall(t *testing.T) {
	allocs := func(size int) (float64, int) {
		stream, calls := benchstream.Responses(size)
		return testing.AllocsPerRun(2, func() {
			turn, err := Merge(bytes.NewReader(stream))
			if err != nil || len(turn.ToolCalls) != calls {
				t.Fatalf("err %v, %d calls, want %d", err, len(turn.ToolCalls), calls)
			}
		}), calls
	}
	small, smallCalls := allocs(1 << 20)
	large, largeCalls := allocs(4 << 20)
	if more := largeCalls - smallCalls; large-small > float64(more)/16 {
		t.Fatalf("%v allocations for %d calls, %v for %d: %v for %d calls more, want at most %d",
			small, smallCalls, large, largeCalls, large-small, more, more/16)
	}
}
