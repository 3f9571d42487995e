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

// Reader returns a reader that serves src cut as Pieces would cut all of
// it, each Read returning at most the rest of the current piece. It cuts
// lazily: it reads src in blocks of rechunkBlock bytes as the pieces need
// them and never holds more than a block and a few bytes of look-ahead,
// so re-chunking a 50 MiB body one byte per Read costs no more memory than
// a small one. (With RechunkBoundaries, a run longer than a block without a
// cut goes out in block-sized Reads.) A read error of src is returned after
// the bytes read before it.
func (r Rechunk) Reader(src io.Reader) io.Reader {
	cr := &rechunkReader{r: r, src: src, end: -1}
	if r.Mode == RechunkRandom {
		cr.rng = newSeededRand(r.Seed)
		cr.max = r.Max
		if cr.max <= 0 {
			cr.max = DefaultRechunkMax
		}
	}
	return cr
}

// rechunkBlock is how much of the source a rechunkReader reads at once.
const rechunkBlock = 32 << 10

// rechunkReader is the lazy form of Pieces. Offsets are from the start of
// the body.
type rechunkReader struct {
	r    Rechunk
	src  io.Reader
	buf  []byte // body bytes [pos, pos+len(buf)): read from src, not yet served
	back []byte // the array buf lives in
	pos  int64  // bytes served
	end  int64  // end of the current piece; -1 before the first
	err  error  // src's error (io.EOF at its end), once buf is drained
	rng  *seededRand
	max  int
	scan int64   // RechunkBoundaries: where the cut search goes on
	cuts []int64 // RechunkBoundaries: cuts found and not yet reached
}

// fill reads src until buf holds the bytes up to offset want (exclusive),
// or src ends. It reports whether buf reaches want. buf lives in one
// backing array, its bytes moved to the front when it reaches the end.
func (cr *rechunkReader) fill(want int64) bool {
	for empty := 0; cr.pos+int64(len(cr.buf)) < want && cr.err == nil; {
		switch {
		case cr.back == nil:
			cr.back = make([]byte, 2*rechunkBlock)
			cr.buf = cr.back[:0]
		case len(cr.buf) == cap(cr.buf) && len(cr.buf) == len(cr.back):
			grown := make([]byte, 2*len(cr.back))
			cr.back, cr.buf = grown, grown[:copy(grown, cr.buf)]
		case len(cr.buf) == cap(cr.buf):
			cr.buf = cr.back[:copy(cr.back, cr.buf)]
		}
		n, err := cr.src.Read(cr.buf[len(cr.buf):cap(cr.buf)])
		cr.buf = cr.buf[:len(cr.buf)+n]
		if err != nil {
			cr.err = err
		}
		if empty++; n > 0 {
			empty = 0
		} else if empty >= 100 {
			cr.err = io.ErrNoProgress
		}
	}
	return cr.pos+int64(len(cr.buf)) >= want
}

// nextEnd returns where the piece starting at pos ends, as Pieces cuts.
func (cr *rechunkReader) nextEnd() int64 {
	const rest = int64(1) << 62 // the piece runs to the end of the body
	switch cr.r.Mode {
	case RechunkBytes:
		return cr.pos + 1
	case RechunkRandom:
		return cr.pos + 1 + int64(cr.rng.intn(cr.max))
	case RechunkBoundaries:
		for len(cr.cuts) == 0 {
			if cr.scan-cr.pos >= rechunkBlock {
				return cr.scan // a long run without a cut goes out a block at a time
			}
			if !cr.fill(cr.scan+utf8.UTFMax) && !cr.fill(cr.scan+1) {
				return rest
			}
			avail := cr.buf[cr.scan-cr.pos:]
			if avail[0] == '\r' && len(avail) > 1 && avail[1] == '\n' {
				cr.cuts = append(cr.cuts, cr.scan+1)
				cr.scan += 2
				continue
			}
			_, size := utf8.DecodeRune(avail)
			for k := 1; k < size; k++ {
				cr.cuts = append(cr.cuts, cr.scan+int64(k))
			}
			cr.scan += int64(size)
		}
		end := cr.cuts[0]
		cr.cuts = cr.cuts[1:]
		return end
	}
	return rest
}

func (cr *rechunkReader) Read(p []byte) (int, error) {
	if !cr.fill(cr.pos + 1) {
		if cr.err == io.EOF || cr.err == nil {
			return 0, io.EOF
		}
		return 0, cr.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if cr.end <= cr.pos {
		cr.end = cr.nextEnd()
	}
	cr.fill(min(cr.end, cr.pos+rechunkBlock)) // the whole piece, as far as src has it
	n := copy(p, cr.buf[:min(int64(len(cr.buf)), cr.end-cr.pos)])
	cr.buf = cr.buf[n:]
	cr.pos += int64(n)
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
