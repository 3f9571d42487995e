package cassette

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkValidText checks a stream of JSON events with Chinese text, as
// the fast decoder checks every body it reads.
func BenchmarkValidText(b *testing.B) {
	var s strings.Builder
	for n := 0; s.Len() < 1<<20; n++ {
		fmt.Fprintf(&s, "data: {\"choices\":[{\"delta\":{\"content\":\"回放回放 %d\"}}]} ", n)
	}
	text := []byte(s.String())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if !validText(text, true) {
			b.Fatal("not valid")
		}
	}
}
