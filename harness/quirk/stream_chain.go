package quirk

import "fmt"

// The Stream of a composition (Compose) is its parts' Streams one after
// the other: what a part sends on is what the next part reads. Each part's
// Stream sends exactly what its Apply makes of what it read, so the last
// one sends exactly what the composition's Apply makes of the answer.

// chainWrite hands p to the first part and each part's bytes to the next.
// A part that refuses passes the rest through as it comes (its Stream
// does), so the parts after it still read a whole stream; the first error
// is returned, naming its part. A composition under LimitHeld is cut as
// soon as its parts hold more than the bound between them: a part's bytes
// can grow on their way (args_one_rune sends more than it reads), so the
// bound is checked again after they went through.
func (s *Stream) chainWrite(p []byte) ([]byte, error) {
	out := p
	var first error
	for _, part := range s.chain {
		var err error
		if out, err = part.Write(out); err != nil && first == nil {
			first = err
		}
	}
	if held := s.chainHeld(); s.maxHeld > 0 && held > s.maxHeld {
		s.cut, s.chain = true, nil
		return nil, s.wrap(fmt.Errorf("%w: its parts hold %d bytes, the limit is %d", ErrHoldLimit, held, s.maxHeld))
	}
	return out, first
}

// chainClose closes each part in turn, handing what it still had to send
// to the next part before that one is closed.
func (s *Stream) chainClose() ([]byte, error) {
	var out []byte
	var first error
	for i, part := range s.chain {
		var sent []byte
		if i > 0 {
			var err error
			if sent, err = part.Write(out); err != nil && first == nil {
				first = err
			}
		}
		rest, err := part.Close()
		if err != nil && first == nil {
			first = err
		}
		out = append(sent, rest...)
	}
	s.passing = true
	return out, first
}

// chainHeld is what the parts hold between them.
func (s *Stream) chainHeld() int {
	n := 0
	for _, part := range s.chain {
		n += part.Held()
	}
	return n
}
