package textbuf

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// appendN appends n bytes of c to b as a merger does: to what Room(n)
// returns.
func appendN(b *Buffer, c byte, n int) {
	b.Tail = append(b.Room(n), strings.Repeat(string(c), n)...)
}

// TestBufferHoldsWhatWasAppended: appends of random sizes, short and
// longer than a piece, read back in order through String and Len, and a
// Clone reads the same and shares nothing with the original.
func TestBufferHoldsWhatWasAppended(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	for n := range 20 {
		var b Buffer
		var want strings.Builder
		for k := range r.IntN(200) {
			size := r.IntN(2000)
			if r.IntN(20) == 0 {
				size = r.IntN(3 * PieceBytes)
			}
			c := byte('a' + k%26)
			appendN(&b, c, size)
			want.WriteString(strings.Repeat(string(c), size))
		}
		if got := b.String(); got != want.String() || b.Len() != want.Len() {
			t.Fatalf("buffer %d: %d bytes (Len %d), want %d; equal: %v", n, len(got), b.Len(), want.Len(), got == want.String())
		}
		c := b.Clone()
		appendN(&c, '!', 3)
		if c.String() != want.String()+"!!!" || b.String() != want.String() {
			t.Fatalf("buffer %d: the clone does not read the same, or appending to it changed the original", n)
		}
	}
}

// TestBufferNeverMovesText: once the first piece is full, what Room
// returns has room for the bytes asked for, so no piece is ever copied:
// appending 8 MiB in events of 100 bytes and making the string allocates
// about twice the text (the pieces, then the string), where a growing
// slice allocated over four times it and converting it a fifth.
func TestBufferNeverMovesText(t *testing.T) {
	const text = 8 << 20
	var b Buffer
	for b.Len() < PieceBytes {
		appendN(&b, 'x', 100)
	}
	for b.Len() < 2*PieceBytes {
		p, tail := b.Room(100), b.Tail
		if cap(p)-len(p) < 100 {
			t.Fatalf("at %d bytes: Room(100) has room for %d", b.Len(), cap(p)-len(p))
		}
		if len(tail) > 0 && len(p) > 0 && &p[0] != &tail[0] {
			t.Fatalf("at %d bytes: Room moved the last piece", b.Len())
		}
		b.Tail = append(p, strings.Repeat("x", 100)...)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var big Buffer
	event := []byte(strings.Repeat("y", 100))
	for big.Len() < text {
		big.Tail = append(big.Room(len(event)), event...)
	}
	s := big.String()
	runtime.ReadMemStats(&after)
	if len(s) != big.Len() {
		t.Fatalf("String: %d bytes, want %d", len(s), big.Len())
	}
	if alloc, most := after.TotalAlloc-before.TotalAlloc, uint64(2*text+text/4); alloc > most {
		t.Errorf("appending %d bytes and making the string allocated %d bytes, want at most %d", text, alloc, most)
	} else {
		t.Logf("%d bytes allocated for %d of text", alloc, text)
	}
}
