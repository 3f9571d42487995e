package rechunk

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// readPieces reads r with a buffer larger than any piece and returns what
// each Read returned.
func readPieces(t *testing.T, r io.Reader) []string {
	t.Helper()
	var got []string
	buf := make([]byte, 2*rechunkBlock)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			got = append(got, string(buf[:n]))
		}
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The lazy reader cuts exactly as Pieces cuts the whole body, whatever
// sizes the source reads come in (a CR and its LF, or a character's bytes,
// split across source reads included).
func TestRechunkReaderCutsAsPieces(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "\r", "\n", "\r\n", "你", "😀", "é", "\xff", "data: ", "\xe4\xbd"}
	for n := range 40 {
		var b bytes.Buffer
		for range rnd.IntN(400) {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		body := b.Bytes()
		for _, r := range []Cutter{{Mode: Bytes}, {Mode: Boundaries}, {Mode: Random, Seed: int64(n)}, {Mode: Random, Seed: 9, Max: 3}} {
			var want []string
			for _, p := range r.Pieces(body) {
				want = append(want, string(p))
			}
			for _, src := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", bytes.NewReader(body)},
				{"one byte", iotest.OneByteReader(bytes.NewReader(body))},
				{"half", iotest.HalfReader(bytes.NewReader(body))},
			} {
				if diff := cmp.Diff(want, readPieces(t, r.Reader(src.r))); diff != "" {
					t.Fatalf("body %d, %s, source %s: reads (-Pieces +Reader):\n%s", n, r.Mode, src.name, diff)
				}
			}
		}
	}
}

// countingReader serves n bytes of 'x' and counts what was read.
type countingReader struct{ left, read int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), c.left)
	for i := range p[:n] {
		p[i] = 'x'
	}
	c.left -= n
	c.read += n
	return int(n), nil
}

// Re-chunking a 50 MiB body one byte per Read reads the source a block at a
// time as the pieces need it, never the whole body up front.
func TestRechunkReaderIsLazy(t *testing.T) {
	for _, r := range []Cutter{{Mode: Bytes}, {Mode: Boundaries}, {Mode: Random, Seed: 1}} {
		src := &countingReader{left: 50 << 20}
		rd := r.Reader(src)
		buf := make([]byte, 64)
		var got int64
		for got < 100_000 {
			n, err := rd.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			got += int64(n)
		}
		if src.read > got+2*rechunkBlock {
			t.Errorf("%s: served %d bytes, read %d from the source; want at most %d", r.Mode, got, src.read, got+2*rechunkBlock)
		}
		cr := rd.(*rechunkReader)
		if cap(cr.back) > 2*rechunkBlock {
			t.Errorf("%s: holds a %d-byte buffer", r.Mode, cap(cr.back))
		}
	}
}

// A long run without a cut (boundaries mode, ASCII) goes out a block at a
// time instead of being held whole.
func TestRechunkReaderLongRun(t *testing.T) {
	src := &countingReader{left: 1 << 20}
	got := readPieces(t, Cutter{Mode: Boundaries}.Reader(src))
	if len(got) != (1<<20)/rechunkBlock {
		t.Errorf("%d reads, want %d", len(got), (1<<20)/rechunkBlock)
	}
}
