package textbuf

import "strings"

// PieceBytes is the size of a piece after the first.
const PieceBytes = 64 << 10

// A Buffer is text in pieces: the full pieces, then Tail, the piece being
// appended to. The zero value is empty.
type Buffer struct {
	full [][]byte
	n    int // the bytes of full
	// Tail is the last piece. Append to what Room returns and store the
	// result here.
	Tail []byte
}

// Room returns the piece to append at most n bytes to: Tail while they fit
// in it, or while it is the first piece and shorter than PieceBytes (it
// grows as a slice does), else a new piece with room for them, Tail being
// kept as it is.
func (b *Buffer) Room(n int) []byte {
	if len(b.Tail)+n <= cap(b.Tail) || len(b.full) == 0 && len(b.Tail) < PieceBytes {
		return b.Tail
	}
	b.full = append(b.full, b.Tail)
	b.n += len(b.Tail)
	b.Tail = make([]byte, 0, max(n, PieceBytes))
	return b.Tail
}

// Len is the length of the text.
func (b *Buffer) Len() int { return b.n + len(b.Tail) }

// String returns the text, copied once.
func (b *Buffer) String() string {
	if len(b.full) == 0 {
		return string(b.Tail)
	}
	var s strings.Builder
	s.Grow(b.Len())
	for _, p := range b.full {
		s.Write(p)
	}
	s.Write(b.Tail)
	return s.String()
}

// Clone returns a copy of the text, which shares nothing with b.
func (b *Buffer) Clone() Buffer {
	c := Buffer{n: b.n, Tail: append([]byte(nil), b.Tail...)}
	for _, p := range b.full {
		c.full = append(c.full, append([]byte(nil), p...))
	}
	return c
}
