package conform

import (
	"slices"
	"testing"
)

// The stall case starts first, then the other faults, then the broken
// streams, then the rest, each group in the catalog's order.
func TestLongestFirst(t *testing.T) {
	cases := Cases()
	idx := make([]int, 0, len(cases))
	for i := range cases[1:] {
		idx = append(idx, i+1)
	}
	var got []string
	for _, i := range longestFirst(cases, idx)[:8] {
		got = append(got, cases[i].ID)
	}
	want := []string{"fault_stall", "fault_429", "fault_500", "fault_reset", "midstream_error", "truncated", "finish_length", "index_plus_1"}
	if !slices.Equal(got, want) {
		t.Errorf("the first cases started: %v\nwant %v", got, want)
	}
}
