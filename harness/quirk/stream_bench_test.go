package quirk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// BenchmarkQuirkStream streams a clean answer of each format event by event
// (as serve -quirk gets it from upstream) through every quirk of All(): a
// quarter of the pairs apply, the rest are refused by the format guard,
// as in TestStreamIsApply. Bytes are the answer's, once per quirk.
func BenchmarkQuirkStream(b *testing.B) {
	answers := map[string]string{
		"chat":      filepath.Join("testdata", "clean.sse"),
		"messages":  filepath.Join("testdata", "messages_clean.sse"),
		"gemini":    filepath.Join("testdata", "gemini_clean.sse"),
		"responses": filepath.Join("..", "..", "wire", "responses", "testdata", "streams", "text_and_parallel_calls.sse"),
	}
	all := All()
	for _, api := range []string{"chat", "messages", "responses", "gemini"} {
		body, err := os.ReadFile(answers[api])
		if err != nil {
			b.Fatal(err)
		}
		events := sse.SplitEvents(body)
		b.Run(api, func(b *testing.B) {
			b.SetBytes(int64(len(body) * len(all)))
			b.ReportAllocs()
			for b.Loop() {
				for _, q := range all {
					s := q.Stream(7)
					for _, ev := range events {
						_, _ = s.Write(ev)
					}
					_, _ = s.Close()
				}
			}
		})
	}
}
