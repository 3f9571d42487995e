package gemini

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchGeminiStream builds a Gemini stream of at least size bytes: calls in
// rounds of three, each whole in its own event as Gemini sends them unless
// arguments are streamed, with the same arguments as the other formats'
// benchmarks, and the finishReason and usage in the last event.
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

// benchStreamedArgsStream is the same rounds of three calls with their
// arguments streamed (Vertex AI's streamFunctionCallArguments): a named part
// with willContinue, one partialArgs piece per event for each string in
// pieces of at most 8 bytes and for each number, then an empty functionCall.
func benchStreamedArgsStream(size int) (stream []byte, calls int) {
	var b bytes.Buffer
	type leaf struct {
		path, str string
		num       string
	}
	rounds := [][]leaf{
		{{path: "$.pattern", str: "src/**/*.test.js"}, {path: "$.glob", str: "**/*.js"}},
		{{path: "$.pattern", str: `a \/ b`}, {path: "$.glob", str: "src/**"}, {path: "$.path", str: "中文/目录"}},
		{{path: "$.path", str: "src/calc.js"}, {path: "$.offset", num: "1"}, {path: "$.limit", num: "400"}},
	}
	names := []string{"glob", "grep", "read_file"}
	event := func(part string) {
		fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [%s],\"role\": \"model\"},\"index\": 0}],\"modelVersion\": \"gemini-3-pro-preview\",\"responseId\": \"vQ4wabCdEfGhIjKlMnOpQr\"}\r\n\r\n", part)
	}
	for b.Len() < size {
		for i, leaves := range rounds {
			event(fmt.Sprintf(`{"functionCall": {"name": %q,"willContinue": true}}`, names[i]))
			for _, l := range leaves {
				if l.num != "" {
					event(fmt.Sprintf(`{"functionCall": {"partialArgs": [{"jsonPath": %q,"numberValue": %s}],"willContinue": true}}`, l.path, l.num))
					continue
				}
				for rest := []rune(l.str); len(rest) > 0; {
					n := min(len(rest), 3)
					event(fmt.Sprintf(`{"functionCall": {"partialArgs": [{"jsonPath": %q,"stringValue": %q,"willContinue": true}],"willContinue": true}}`, l.path, string(rest[:n])))
					rest = rest[n:]
				}
			}
			event(`{"functionCall": {}}`)
			calls++
		}
	}
	b.WriteString("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 472,\"candidatesTokenCount\": 89,\"totalTokenCount\": 561}}\r\n\r\n")
	return b.Bytes(), calls
}

func BenchmarkMergeGeminiStreamedArgs(b *testing.B) {
	stream, calls := benchStreamedArgsStream(1 << 20)
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

// BenchmarkMergeGeminiStreamedArgs64MiB streams one call whose one string
// argument is 64 MiB, in pieces of 4 KiB: what the merger holds is that
// argument (the builder's buffer, then the arguments text), never the
// stream; B/op over the argument's size says how many copies that is.
func BenchmarkMergeGeminiStreamedArgs64MiB(b *testing.B) {
	const argSize, pieceSize = 64 << 20, 4 << 10
	piece := bytes.Repeat([]byte("x"), pieceSize)
	var head, tail bytes.Buffer
	head.WriteString("data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"write_note\",\"willContinue\": true}}],\"role\": \"model\"},\"index\": 0}]}\r\n\r\n")
	event := []byte("data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"partialArgs\": [{\"jsonPath\": \"$.text\",\"stringValue\": \"" + string(piece) + "\",\"willContinue\": true}],\"willContinue\": true}}],\"role\": \"model\"},\"index\": 0}]}\r\n\r\n")
	tail.WriteString("data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {}}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}]}\r\n\r\n")
	events := argSize / pieceSize
	size := int64(head.Len() + events*len(event) + tail.Len())
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		r := io.MultiReader(bytes.NewReader(head.Bytes()), &repeatReader{chunk: event, left: events}, bytes.NewReader(tail.Bytes()))
		turn, err := Merge(r)
		if err != nil || len(turn.ToolCalls) != 1 || len(turn.ToolCalls[0].Function.Arguments) != argSize+len(`{"text":""}`) {
			b.Fatalf("merged %d calls: %v", len(turn.ToolCalls), err)
		}
	}
	b.ReportMetric(argSize, "argbytes/op")
}

// repeatReader reads chunk left times without holding the stream.
type repeatReader struct {
	chunk []byte
	left  int
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunk[r.off:])
	r.off += n
	if r.off == len(r.chunk) {
		r.off, r.left = 0, r.left-1
	}
	return n, nil
}
