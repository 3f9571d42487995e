package responses

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestFindBytesRecentIsTheMap: findBytes, which remembers the items it
// found last by their own id, finds the very item it finds with nothing
// remembered, through any sequence of items opened, named (with ids reused
// across items and kinds) and found; so do lookup and find, which read
// byID through what findBytes remembers and byID and byCall through the
// ids last found missing.
func TestFindBytesRecentIsTheMap(t *testing.T) {
	kinds := []respKind{kindFunctionCall, kindMessage, kindCustomCall}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 2))
		fast, slow := newRespItems(), newRespItems()
		for step := range 200 {
			id := "fc_" + strconv.Itoa(rng.IntN(6))
			kind := kinds[rng.IntN(len(kinds))]
			index := rng.IntN(4)
			slow.recent, slow.noID, slow.noCall = [4]*respItem{}, "", ""
			var got, want *respItem
			switch rng.IntN(4) {
			case 0: // an output_item.added: opened, or joined, and named
				var found [2]*respItem
				for i, s := range []*respItems{&fast, &slow} {
					it := s.lookup(id, "", kind, &index, true)
					if it == nil {
						it = s.add(kind, &index)
					}
					s.name(it, id, "call_"+id)
					found[i] = it
				}
				got, want = found[0], found[1]
			case 1: // an output_item.done
				got, want = fast.find(id, "call_"+id, kind, &index), slow.find(id, "call_"+id, kind, &index)
			default: // a delta
				got, want = fast.findBytes([]byte(id), kind, &index), slow.findBytes([]byte(id), kind, &index)
			}
			gotAt, wantAt := slices.Index(fast.all, got), slices.Index(slow.all, want)
			if gotAt != wantAt || len(fast.all) != len(slow.all) || len(fast.byID) != len(slow.byID) {
				t.Fatalf("seed %d step %d: %s of kind %d at %d = item %d, want item %d", seed, step, id, kind, index, gotAt, wantAt)
			}
		}
	}
}
