package conform

import "testing"

// The note in a case's details, and the verdict it makes.
func TestLeftBehind(t *testing.T) {
	twelve := []string{"l", "k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"}
	for _, tt := range []struct {
		v     verdict
		notes []leftNote
		want  verdict
	}{
		{verdict{status: Success, details: "exit 0"}, nil, verdict{status: Success, details: "exit 0"}},
		{verdict{status: Success, details: "exit 0"}, []leftNote{{names: []string{"sleep"}}},
			verdict{status: Warning, details: "exit 0; but it left 1 process behind: sleep"}},
		{verdict{status: Skipped, details: "unchanged"}, []leftNote{{names: []string{"sleep", "node"}}},
			verdict{status: Warning, details: "unchanged; but it left 2 processes behind: node, sleep"}},
		{verdict{status: Warning, details: "salvaged"}, []leftNote{{names: []string{"x"}, others: []string{"a", "b"}}},
			verdict{status: Warning, details: "salvaged; and it or a case running alongside it (a, b) left 1 process behind: x"}},
		{verdict{status: Failure, details: "exit 1"}, []leftNote{{names: twelve}, {names: []string{"y"}, others: []string{"c"}}},
			verdict{status: Failure, details: "exit 1; and it left 12 processes behind: a, b, c, d, e, f, g, h, i, j and 2 more; and it or a case running alongside it (c) left 1 process behind: y"}},
	} {
		if got := leftBehind(tt.v, tt.notes); got != tt.want {
			t.Errorf("leftBehind(%v, %v)\n = %v\nwant %v", tt.v, tt.notes, got, tt.want)
		}
	}
}
