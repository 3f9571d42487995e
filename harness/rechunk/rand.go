package rechunk

// A Rand is splitmix64: a few lines, and the same numbers from a seed on
// every Go version, so goldens cut by it never move. The random cuts use it,
// and so do the quirk transforms that pick positions from a seed.
type Rand struct{ state uint64 }

// NewRand returns the generator seeded with seed.
func NewRand(seed int64) *Rand { return &Rand{state: uint64(seed)} }

func (s *Rand) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a number in [0, n); n must be positive.
func (s *Rand) Intn(n int) int { return int(s.next() % uint64(n)) }
