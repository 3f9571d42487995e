package chat

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// A stream that starts with a BOM merges as it would without one; before,
// the first line's field was "\uFEFFdata" and the whole stream counted as
// truncated.
func TestMergeStreamBOM(t *testing.T) {
	turn, err := Merge(strings.NewReader("\uFEFFdata: {\"choices\":[{\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if turn.Text != "hi" || turn.FinishReason != "stop" {
		t.Errorf("turn = %+v", turn)
	}
}

// blankLines is n blank lines ending in eol, then one chunk that finishes.
func blankLines(n int, eol string) []byte {
	var b bytes.Buffer
	b.Grow(n*len(eol) + 100)
	for range n {
		b.WriteString(eol)
	}
	b.WriteString(`data: {"choices":[{"finish_reason":"stop"}]}` + eol + eol)
	return b.Bytes()
}

// Twenty million blank lines in bare CRs take time linear in the input, as
// with LF: before, every line searched up to 64 KiB ahead for a LF.
// go test ./agent -run XXX -bench SSEBlankLines -benchmem
func BenchmarkSSEBlankLines(b *testing.B) {
	for _, eol := range []struct{ name, eol string }{{"LF", "\n"}, {"CR", "\r"}, {"CRLF", "\r\n"}} {
		in := blankLines(20_000_000, eol.eol)
		b.Run(eol.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := Merge(bytes.NewReader(in)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestMergeStreamLongLine(t *testing.T) {
	// A whole-call chunk whose arguments are over 1 MiB (term-llm #298, ragflow #15381).
	content := strings.Repeat("第一行 line \\\"quoted\\\"\\n", 60000)
	args := `{"path":"big.txt","content":"` + content + `"}`
	quoted, _ := jsonQuote(args)
	in := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_big\",\"type\":\"function\",\"function\":{\"name\":\"write_file\",\"arguments\":" + quoted + "}}]},\"finish_reason\":\"tool_calls\"}]}\r\n\r\ndata: [DONE]\r\n\r\n"
	if len(in) < 1<<20 {
		t.Fatalf("fixture is %d bytes, want over 1 MiB", len(in))
	}
	turn, err := Merge(streamtest.NewPieceReader([]byte(in), 3, 4096))
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.ToolCall{{ID: "call_big", Type: "function", Function: agent.FunctionCall{Name: "write_file", Arguments: args}}}
	if diff := cmp.Diff(want, turn.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// jsonQuote is s as a JSON string, with no HTML escaping.
func jsonQuote(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n"), err
}
