package streamtest

import (
	"io"
	"math/rand/v2"
)

// PieceReader returns its bytes in seeded random-size pieces of 1 to max
// bytes, the way a network delivers them.
type PieceReader struct {
	data []byte
	rnd  *rand.Rand
	max  int
}

// NewPieceReader reads data in pieces of 1 to max bytes chosen by seed.
func NewPieceReader(data []byte, seed uint64, max int) *PieceReader {
	return &PieceReader{data: data, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), max: max}
}

func (p *PieceReader) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := 1 + p.rnd.IntN(p.max)
	n = min(n, len(b), len(p.data))
	copy(b, p.data[:n])
	p.data = p.data[n:]
	return n, nil
}

// SplitReader returns its input in the pieces given, one per Read.
type SplitReader struct{ Pieces []string }

func (s *SplitReader) Read(b []byte) (int, error) {
	if len(s.Pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(b, s.Pieces[0])
	s.Pieces[0] = s.Pieces[0][n:]
	if s.Pieces[0] == "" {
		s.Pieces = s.Pieces[1:]
	}
	return n, nil
}
