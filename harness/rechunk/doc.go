// Package rechunk re-delivers response bodies in pieces, one piece at most
// per Read, the way a network hands an SSE reader its bytes: go-vcr and a
// plain server hand back a body whole, which hides every bug of a reader
// that assumes a line arrives in one read.
//
// A Cutter says how to cut: Mode Whole (as is), Bytes (one byte per Read),
// Boundaries (cut inside every CRLF and every multi-byte UTF-8 character,
// the runs between whole) or Random (pieces of 1..Max bytes, sizes drawn
// from Seed; Max 0 is DefaultMax). ParseMode reads the -rechunk flag's
// words. Use Cutter.Transport around any http.RoundTripper (a cassette
// does, through cassette.Options.Rechunk), Cutter.Reader around a body, or
// Cutter.Pieces to have the pieces themselves (the server writes each with
// a flush).
//
// Rules: the pieces depend only on the body, the mode and the seed, and
// joined they are the body; an empty body has none. The reader cuts
// lazily, reading its source 32 KiB at a time, so a 50 MiB body costs no
// more memory than a small one. Rand is the seeded generator behind Random
// (splitmix64, the same numbers on every Go version, so goldens cut by it
// never move); the quirk transforms draw their seeded choices from it too.
package rechunk
