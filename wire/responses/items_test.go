package responses

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFindBytesRecentIsTheMap: findBytes, which remembers the items it
// found last by their own id, finds the very item it finds with nothing
// remembered, through any sequence of items opened, named (with ids reused
// across items and kinds) and found.
func TestFindBytesRecentIsTheMap(t *testing.T) {
	kinds := []respKind{kindFunctionCall, kindMessage, kindCustomCall}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 2))
		fast, slow := newRespItems(), newRespItems()
		for step := range 200 {
			id := "fc_" + strconv.Itoa(rng.IntN(6))
			kind := kinds[rng.IntN(len(kinds))]
			index := rng.IntN(4)
			switch rng.IntN(3) {
			case 0: // an output_item.added: opened, or joined, and named
				for _, s := range []*respItems{&fast, &slow} {
					it := s.lookup(id, "", kind, &index, true)
					if it == nil {
						it = s.add(kind, &index)
					}
					s.name(it, id, "call_"+id)
				}
			default: // a delta
				slow.recent = [4]*respItem{}
				got, want := fast.findBytes([]byte(id), kind, &index), slow.findBytes([]byte(id), kind, &index)
				if got.seen != want.seen || len(fast.all) != len(slow.all) {
					t.Fatalf("seed %d step %d: findBytes(%s, %d) = item %d, want item %d", seed, step, id, kind, got.seen, want.seen)
				}
			}
		}
	}
}
