package gemini

import (
	"bytes"
	"fmt"
	"testing"
)

// benchGeminiStream builds a Gemini stream of at least size bytes: calls in
// rounds of three, each whole in its own event as Gemini sends them, with
// the same arguments as the other formats' benchmarks (whose streams split
// them into pieces: Gemini never does), and the finishReason and usage in
// the last event.
func benchGeminiStream(size int) (stream []byte, calls int) {
	var b bytes.Buffer
	args := []string{
		`{"pattern":"src/**/*.test.js","glob":"**/*.js"}`,
		`{"pattern":"a \/ b","glob":"src/**","path":"中文/目录"}`,
		`{"path":"src/calc.js","offset":1,"limit":400}`,
	}
	names := []string{"glob", "grep", "read_file"}
	for b.Len() < size {
		for i, a := range args {
			fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": %q,\"args\": %s}}],\"role\": \"model\"},\"index\": 0}],\"modelVersion\": \"gemini-2.5-flash\",\"responseId\": \"vQ4wabCdEfGhIjKlMnOpQr\"}\r\n\r\n", names[i], a)
			calls++
		}
	}
	b.WriteString("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 472,\"candidatesTokenCount\": 89,\"totalTokenCount\": 561}}\r\n\r\n")
	return b.Bytes(), calls
}

func BenchmarkMergeGeminiStream(b *testing.B) {
	stream, calls := benchGeminiStream(1 << 20)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		turn, err := Merge(bytes.NewReader(stream))
		if err != nil || len(turn.ToolCalls) != calls {
			b.Fatalf("merged %d calls (want %d): %v", len(turn.ToolCalls), calls, err)
		}
	}
	b.ReportMetric(float64(bytes.Count(stream, []byte("\r\n\r\n"))), "events/op")
	b.ReportMetric(float64(calls), "calls/op")
}
