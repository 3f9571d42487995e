package responses

import (
	"io"
	"io/fs"
)

// What a stream of known length shows about how many items it has: after
// its first presizeAt item ids, the items so far scaled by the share of the
// stream read so far (counted as its events' data, which leaves out the
// framing: the estimate errs on the large side, by the share of event:
// lines and "data: " prefixes). The maps of ids are then made that large
// at once (at most maxPresize times what they hold), instead of growing
// table by table to it: a stream of thousands of calls read from a file or
// from memory. A stream of unknown length (a response body) grows them as
// before; either way they hold the same entries.
const (
	presizeAt  = 1024
	maxPresize = 16
)

// streamLength is the length of the stream r reads when r knows it (a
// bytes.Reader, a strings.Reader, a regular file), else 0.
func streamLength(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Size() int64 }:
		return r.Size()
	case interface{ Stat() (fs.FileInfo, error) }:
		if info, err := r.Stat(); err == nil && info.Mode().IsRegular() {
			return info.Size()
		}
	}
	return 0
}

// presize remakes the maps of ids as large as the stream's length says
// they will grow, once they hold presizeAt ids.
func (s *respItems) presize() {
	if s.length <= 0 || s.read <= 0 || len(s.byID) != presizeAt {
		return
	}
	// The items so far times the stream's length over what was read, in
	// 1/16ths.
	scale := min(16*s.length/s.read, 16*maxPresize)
	if scale < 2*16 {
		return
	}
	s.byID = grown(s.byID, scale)
	s.byCall = grown(s.byCall, scale)
}

// grown is a copy of m with room for scale/16 times its entries.
func grown(m map[string]*respItem, scale int64) map[string]*respItem {
	g := make(map[string]*respItem, int(scale*int64(len(m))/16))
	for k, v := range m {
		g[k] = v
	}
	return g
}
