package harness

import (
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

// RechunkMode says how a Rechunk cuts a response body into reads.
type RechunkMode int

const (
	// RechunkWhole delivers the body as go-vcr does: all of it at once.
	RechunkWhole RechunkMode = iota
	// RechunkBytes delivers one byte per Read.
	RechunkBytes
	// RechunkBoundaries cuts between the CR and LF of every CRLF and
	// between the bytes of every multi-byte UTF-8 character; the runs in
	// between arrive whole.
	RechunkBoundaries
	// RechunkRandom cuts pieces of 1..Max bytes, sizes drawn from Seed.
	RechunkRandom
)

var rechunkModeNames = []string{"whole", "bytes", "boundaries", "random"}

// String is the mode's name as ParseRechunkMode reads it.
func (m RechunkMode) String() string {
	if m < 0 || int(m) >= len(rechunkModeNames) {
		return fmt.Sprintf("RechunkMode(%d)", int(m))
	}
	return rechunkModeNames[m]
}

// ParseRechunkMode reads "whole", "bytes", "boundaries" or "random".
func ParseRechunkMode(s string) (RechunkMode, error) {
	for i, n := range rechunkModeNames {
		if n == s {
			return RechunkMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rechunk mode %q (want whole, bytes, boundaries or random)", s)
}

// DefaultRechunkMax is the largest random piece when Rechunk.Max is 0.
const DefaultRechunkMax = 16

// A Rechunk re-delivers a body in pieces, one piece at most per Read, the
// way a network hands an SSE reader its bytes. The pieces of a body depend
// only on the body, the mode and the seed.
type Rechunk struct {
	Mode RechunkMode
	Seed int64 // RechunkRandom only
	Max  int   // RechunkRandom only: largest piece in bytes; 0 means DefaultRechunkMax
}

// Pieces cuts b as the mode says; concatenated they are b. An empty b has
// no pieces.
func (r Rechunk) Pieces(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	var cuts []int // strictly inside b, ascending
	switch r.Mode {
	case RechunkBytes:
		for i := 1; i < len(b); i++ {
			cuts = append(cuts, i)
		}
	case RechunkBoundaries:
		for i := 0; i < len(b); {
			if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				cuts = append(cuts, i+1)
				i += 2
				continue
			}
			_, size := utf8.DecodeRune(b[i:])
			for k := 1; k < size; k++ {
				cuts = append(cuts, i+k)
			}
			i += size
		}
	case RechunkRandom:
		max := r.Max
		if max <= 0 {
			max = DefaultRechunkMax
		}
		rng := newSeededRand(r.Seed)
		for i := 1 + rng.intn(max); i < len(b); i += 1 + rng.intn(max) {
			cuts = append(cuts, i)
		}
	}
	pieces := make([][]byte, 0, len(cuts)+1)
	start := 0
	for _, c := range cuts {
		pieces = append(pieces, b[start:c])
		start = c
	}
	return append(pieces, b[start:])
}

// Reader returns a reader that reads all of src on its first Read, then
// serves it piece by piece: each Read returns at most the rest of the
// current piece. A read error of src is returned after the bytes read
// before it.
func (r Rechunk) Reader(src io.Reader) io.Reader {
	return &rechunkReader{r: r, src: src}
}

type rechunkReader struct {
	r      Rechunk
	src    io.Reader
	loaded bool
	pieces [][]byte
	err    error
}

func (cr *rechunkReader) Read(p []byte) (int, error) {
	if !cr.loaded {
		b, err := io.ReadAll(cr.src)
		cr.pieces, cr.err, cr.loaded = cr.r.Pieces(b), err, true
	}
	for len(cr.pieces) > 0 && len(cr.pieces[0]) == 0 {
		cr.pieces = cr.pieces[1:]
	}
	if len(cr.pieces) == 0 {
		if cr.err != nil {
			return 0, cr.err
		}
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	n := copy(p, cr.pieces[0])
	cr.pieces[0] = cr.pieces[0][n:]
	return n, nil
}

// Transport wraps next so that every response body is re-delivered in
// pieces. With RechunkWhole it returns next itself.
func (r Rechunk) Transport(next http.RoundTripper) http.RoundTripper {
	if r.Mode == RechunkWhole {
		return next
	}
	return &rechunkTransport{r: r, next: next}
}

type rechunkTransport struct {
	r    Rechunk
	next http.RoundTripper
}

func (t *rechunkTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = rechunkBody{Reader: t.r.Reader(resp.Body), Closer: resp.Body}
	return resp, nil
}

type rechunkBody struct {
	io.Reader
	io.Closer
}

// seededRand is splitmix64: a few lines, and the same numbers from a seed
// on every Go version, so goldens cut by it never move.
type seededRand struct{ state uint64 }

func newSeededRand(seed int64) *seededRand { return &seededRand{state: uint64(seed)} }

func (s *seededRand) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be positive.
func (s *seededRand) intn(n int) int { return int(s.next() % uint64(n)) }
