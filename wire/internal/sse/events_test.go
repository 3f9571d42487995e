package sse

import (
	"bytes"
	"testing"
)

// TestTrimSpaceIsBytesTrimSpace: trimSpace returns what bytes.TrimSpace
// does, capacity included, for data with and without spaces of every kind
// at either end.
func TestTrimSpaceIsBytesTrimSpace(t *testing.T) {
	for _, in := range []string{"", " ", "{}", " {} ", "\t{\"a\":1}\r\n", "x", "\u00a0x", "x\u00a0", "\u2028{}", "{}\u0085", "\x7fa\x7f", "\xffa", "a\xff", "a b", "\v\fa"} {
		data := []byte(in + "tail")[:len(in)]
		got, want := trimSpace(data), bytes.TrimSpace(data)
		if string(got) != string(want) || cap(got)-len(got) != cap(want)-len(want) || (got == nil) != (want == nil) {
			t.Errorf("trimSpace(%q) = %q (cap %d), bytes.TrimSpace gives %q (cap %d)", in, got, cap(got), want, cap(want))
		}
	}
}
