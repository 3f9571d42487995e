package responses

import "strings"

// stringArena makes strings of the ids a stream names, many to one
// allocation: each string is a slice of a chunk that is only ever appended
// to, so it never changes. A chunk stays in memory while any of its strings
// does (the ids of a turn's calls keep the others of their chunk).
type stringArena struct {
	chunk strings.Builder
	size  int // the last chunk's capacity
}

// Chunk sizes of a stringArena: each chunk is twice the one before, from
// minArenaChunk to maxArenaChunk, so a short stream's few ids cost little
// and a long one's thousands cost a few allocations.
const (
	minArenaChunk = 256
	maxArenaChunk = 64 << 10
)

// string returns b as a string.
func (a *stringArena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a.chunk.Cap()-a.chunk.Len() < len(b) {
		a.size = min(max(2*a.size, minArenaChunk), maxArenaChunk)
		a.chunk = strings.Builder{}
		a.chunk.Grow(max(a.size, len(b)))
	}
	n := a.chunk.Len()
	a.chunk.Write(b)
	return a.chunk.String()[n:]
}
