package cli

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// listenTCP opens the listener of serve and record; tests replace it to
// see what the commands print for an address beyond loopback while
// listening on loopback only.
var listenTCP = func(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// byteSize is a flag value in bytes, written as a whole number with an
// optional KiB, MiB or GiB ("32MiB").
type byteSize int64

func (b *byteSize) String() string {
	switch n := int64(*b); {
	case n > 0 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	num, unit := s, int64(1)
	for suffix, u := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if rest, ok := strings.CutSuffix(s, suffix); ok {
			num, unit = rest, u
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/unit {
		return fmt.Errorf("want a positive whole number of bytes, KiB, MiB or GiB, e.g. 32MiB")
	}
	*b = byteSize(n * unit)
	return nil
}
