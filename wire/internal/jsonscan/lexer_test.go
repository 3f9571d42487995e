package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestSpecial8MarksTheFirstSpecialByte: the lowest byte special8 marks is
// the first of the 8 that strPlain does not mark, and it marks none when
// strPlain marks them all; Str relies on it to jump to that byte. Words are
// drawn from plain bytes with specials (and the bytes around them) mixed in.
func TestSpecial8MarksTheFirstSpecialByte(t *testing.T) {
	edges := []byte{0, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7f, 0x80, 0x81, 0xa0, 0xdf, 0xe0, 0xff}
	rng := rand.New(rand.NewPCG(1, 8))
	var w [8]byte
	for range 2_000_000 {
		for k := range w {
			if rng.IntN(4) == 0 {
				w[k] = edges[rng.IntN(len(edges))]
			} else {
				w[k] = byte(0x20 + rng.IntN(0x60))
			}
		}
		first := 8
		for k, c := range w {
			if !strPlain[c] {
				first = k
				break
			}
		}
		m := special8(binary.LittleEndian.Uint64(w[:]))
		if got := bits.TrailingZeros64(m) >> 3; got != first {
			t.Fatalf("special8(%q) = %#x: first marked byte %d, want %d", w, m, got, first)
		}
	}
}
