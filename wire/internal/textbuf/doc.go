// Package textbuf holds the text a merger reads from a stream, as it grows,
// without ever copying it while it grows; the turn's text is then made
// from it with one copy (Buffer.String).
//
// A growing []byte is copied each time it outgrows its capacity, and the
// old copy lingers until the collector runs: merging 21 MB of text cost
// about five times that in allocations, and the old copy beside the new one
// at the end. A Buffer keeps the text in pieces instead: the
// first grows as a slice does, so a short answer costs what it did, and
// once it holds PieceBytes, each new piece is made with room for what is
// appended to it (Room), so no piece ever moves. String copies the pieces
// once, into a string of the exact length.
//
//	var b textbuf.Buffer
//	b.Tail = jsonscan.AppendUnquoted(b.Room(len(q)), q) // never more than len(q) bytes
//	text := b.String()
package textbuf
