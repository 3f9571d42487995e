package byindex

import (
	"math/rand/v2"
	"testing"
)

// TestTableIsAMap: a Table holds what a map holds after the same sets, for
// indexes counting up, out of order, repeated, negative and far apart, and
// so does a copy made with Map.
func TestTableIsAMap(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var got Table[int]
		want := map[int]int{}
		for n := range 60 {
			var index int
			switch rng.IntN(4) {
			case 0:
				index = n
			case 1:
				index = rng.IntN(8) - 2
			case 2:
				index = len(got.dense)
			default:
				index = rng.IntN(1000)
			}
			got.Set(index, n)
			want[index] = n
		}
		copied := got.Map(func(v int) int { return v + 1 })
		if got.Len() != len(want) {
			t.Fatalf("seed %d: Len %d, want %d", seed, got.Len(), len(want))
		}
		for index := -3; index < 1001; index++ {
			v, ok := got.Get(index)
			w, wok := want[index]
			c, cok := copied.Get(index)
			if v != w || ok != wok || cok != wok || (cok && c != w+1) {
				t.Fatalf("seed %d: at %d: got %d %v, copy %d %v, want %d %v", seed, index, v, ok, c, cok, w, wok)
			}
		}
	}
}
