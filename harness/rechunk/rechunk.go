package rechunk

import (
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

// Mode says how a Cutter cuts a response body into reads.
type Mode int

const (
	// Whole delivers the body as go-vcr does: all of it at once.
	Whole Mode = iota
	// Bytes delivers one byte per Read.
	Bytes
	// Boundaries cuts between the CR and LF of every CRLF and
	// between the bytes of every multi-byte UTF-8 character; the runs in
	// between arrive whole.
	Boundaries
	// Random cuts pieces of 1..Max bytes, sizes drawn from Seed.
	Random
)

var modeNames = []string{"whole", "bytes", "boundaries", "random"}

// String is the mode's name as ParseMode reads it.
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode reads "whole", "bytes", "boundaries" or "random".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rechunk mode %q (want whole, bytes, boundaries or random)", s)
}

// DefaultMax is the largest random piece when Cutter.Max is 0.
const DefaultMax = 16

// A Cutter re-delivers a body in pieces, one piece at most per Read, the
// way a network hands an SSE reader its bytes. The pieces of a body depend
// only on the body, the mode and the seed.
type Cutter struct {
	Mode Mode
	Seed int64 // Random only
	Max  int   // Random only: largest piece in bytes; 0 means DefaultMax
}

// Pieces cuts b as the mode says; concatenated they are b. An empty b has
// no pieces.
func (r Cutter) Pieces(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	var cuts []int // strictly inside b, ascending
	switch r.Mode {
	case Bytes:
		for i := 1; i < len(b); i++ {
			cuts = append(cuts, i)
		}
	case Boundaries:
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
	case Random:
		max := r.Max
		if max <= 0 {
			max = DefaultMax
		}
		rng := NewRand(r.Seed)
		for i := 1 + rng.Intn(max); i < len(b); i += 1 + rng.Intn(max) {
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
// a small one. (With Boundaries, a run longer than a block without a
// cut goes out in block-sized Reads.) A read error of src is returned after
// the bytes read before it.
func (r Cutter) Reader(src io.Reader) io.Reader {
	cr := &rechunkReader{r: r, src: src, end: -1}
	if r.Mode == Random {
		cr.rng = NewRand(r.Seed)
		cr.max = r.Max
		if cr.max <= 0 {
			cr.max = DefaultMax
		}
	}
	return cr
}

// rechunkBlock is how much of the source a rechunkReader reads at once.
const rechunkBlock = 32 << 10

// rechunkReader is the lazy form of Pieces. Offsets are from the start of
// the body.
type rechunkReader struct {
	r    Cutter
	src  io.Reader
	buf  []byte // body bytes [pos, pos+len(buf)): read from src, not yet served
	back []byte // the array buf lives in
	pos  int64  // bytes served
	end  int64  // end of the current piece; -1 before the first
	err  error  // src's error (io.EOF at its end), once buf is drained
	rng  *Rand
	max  int
	scan int64   // Boundaries: where the cut search goes on
	cuts []int64 // Boundaries: cuts found and not yet reached
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
	case Bytes:
		return cr.pos + 1
	case Random:
		return cr.pos + 1 + int64(cr.rng.Intn(cr.max))
	case Boundaries:
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
// pieces. With Whole it returns next itself.
func (r Cutter) Transport(next http.RoundTripper) http.RoundTripper {
	if r.Mode == Whole {
		return next
	}
	return &rechunkTransport{r: r, next: next}
}

type rechunkTransport struct {
	r    Cutter
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
