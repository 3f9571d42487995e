package cassette

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkNearestLargeBody ranks 40 recorded requests (2 KiB each, and
// 8 of 1 MiB) against a sent request with an extra 11 MiB member, as a
// replay miss does: the cost is in the line counts of the two bodies.
func BenchmarkNearestLargeBody(b *testing.B) {
	var keys []RequestKey
	for i := range 40 {
		size := 2 << 10
		if i%5 == 0 {
			size = 1 << 20
		}
		body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"question %d"},{"role":"assistant","content":%q}]}`, i, strings.Repeat("y", size))
		keys = append(keys, KeyOf("POST", "/v1/chat/completions", []byte(body)))
	}
	sent := KeyOf("POST", "/v1/chat/completions", []byte(`{"model":"m","messages":[{"role":"user","content":"question 7"}],"padding":"`+strings.Repeat("x", 11<<20)+`"}`))
	used := make([]bool, len(keys))
	b.ResetTimer()
	for range b.N {
		if Nearest(keys, used, sent) < 0 {
			b.Fatal("no nearest")
		}
	}
}
