package responses

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestItemsAtIsAMap: itemsAt keeps the items at each output_index exactly
// as a map of slices does, for indexes in order, out of order, repeated,
// negative and far apart.
func TestItemsAtIsAMap(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var got itemsAt
		want := map[int][]*respItem{}
		for n := range 50 {
			var index int
			switch rng.IntN(4) {
			case 0:
				index = n // counting up, as streams do
			case 1:
				index = rng.IntN(8) - 2
			case 2:
				index = len(got.dense)
			default:
				index = rng.IntN(1000)
			}
			it := &respItem{seen: n}
			got.add(index, it)
			want[index] = append(want[index], it)
		}
		for index := -3; index < 1001; index++ {
			if !slices.Equal(got.get(index), want[index]) {
				t.Fatalf("seed %d: items at %d = %v, want %v", seed, index, got.get(index), want[index])
			}
		}
	}
}
