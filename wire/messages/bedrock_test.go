package messages

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/benchstream"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/google/go-cmp/cmp"
)

// frame frames every event of a logical Bedrock stream.
func frame(logical string) []byte {
	var out []byte
	for _, ev := range strings.SplitAfter(logical, "\n\n") {
		out = append(out, Bedrock.FrameEvent([]byte(ev))...)
	}
	return out
}

// message is one framed message with the given headers and payload.
func message(t *testing.T, payload string, headers ...string) []byte {
	t.Helper()
	var m eventstream.Message
	for i := 0; i < len(headers); i += 2 {
		m.Headers = append(m.Headers, eventstream.String(headers[i], headers[i+1]))
	}
	m.Payload = []byte(payload)
	b, err := eventstream.Append(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func chunk(t *testing.T, payload string) []byte {
	return message(t, payload, ":event-type", "chunk", ":content-type", "application/json", ":message-type", "event")
}

// The clean turn Bedrock's writer makes merges back, framed or not, into
// the turn Anthropic's own stream of it merges to; its events are
// Anthropic's less the ping, with Bedrock's metrics on message_stop.
func TestBedrockMergesWhatItWrites(t *testing.T) {
	turn := &agent.Turn{Text: "看 \"a\\b\"", ToolCalls: []agent.ToolCall{
		{Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"数据/a \"b\".txt"}`}},
	}}
	logical := strings.Join(BedrockWrite("m", "c", 0, turn), "")
	want, err := Merge(strings.NewReader(strings.Join(Write("m", "c", 0, turn), "")))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"logical": []byte(logical), "framed": frame(logical)} {
		got, err := Bedrock.Merge(bytes.NewReader(body))
		if err != nil || !cmp.Equal(want, got) {
			t.Errorf("%s: %+v, %v; want %+v", name, got, err, want)
		}
	}
	if strings.Contains(logical, "event: ping") {
		t.Error("Bedrock's events carry a ping")
	}
	if !strings.Contains(logical, `{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":100,"outputTokenCount":12,`) {
		t.Errorf("message_stop without Bedrock's metrics:\n%s", logical)
	}
}

// A stream of a chunk at a time, read a byte at a time, merges the same.
func TestBedrockReaderAnyPieces(t *testing.T) {
	dir := "testdata/bedrock"
	paths, _ := filepath.Glob(filepath.Join(dir, "*.eventstream"))
	if len(paths) < 7 {
		t.Fatalf("%d fixtures in %s", len(paths), dir)
	}
	for _, path := range paths {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole, werr := Bedrock.Merge(bytes.NewReader(body))
		bytewise, berr := Bedrock.Merge(iotest.OneByteReader(bytes.NewReader(body)))
		if !cmp.Equal(whole, bytewise) || streamtest.ErrText(werr) != streamtest.ErrText(berr) {
			t.Errorf("%s: read whole %+v, %v; a byte at a time %+v, %v", path, whole, werr, bytewise, berr)
		}
	}
}

// Every bad input is an error that names the byte offset of the message,
// never a panic or a hang, and the turn merged before it comes back.
func TestBedrockBadInput(t *testing.T) {
	start := chunk(t, `{"bytes":"`+base64.StdEncoding.EncodeToString([]byte(`{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":1}}}`))+`"}`)
	text := chunk(t, `{"bytes":"`+base64.StdEncoding.EncodeToString([]byte(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"kept"}}`))+`"}`)
	head := append(append([]byte(nil), start...), text...)
	at := len(head)
	unknownType := message(t, "{}", ":event-type", "chunk")
	unknownType[12+1+len(":event-type")] = 42 // the header's type byte, after the prelude and the name
	unknownType = fixCRC(unknownType)
	long := append([]byte(nil), chunk(t, `{"bytes":""}`)...)
	binary.BigEndian.PutUint32(long, 1<<20)
	binary.BigEndian.PutUint32(long[8:], crc32.ChecksumIEEE(long[:8]))
	tests := []struct {
		name, want string
		tail       []byte
		is         error
	}{
		{"a body that is not an event stream", "eventstream: message at byte 0: prelude CRC 00000000, computed 6522df69: not an event stream message", []byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00<html>"), eventstream.ErrBadMessage},
		{"a truncated message", "eventstream: message at byte %d: 20 of its 151 bytes: the event stream ended inside a message", chunk(t, `{"bytes":"`+strings.Repeat("A", 48)+`"}`)[:20], eventstream.ErrTruncated},
		{"a length past the body", "eventstream: message at byte %d: 103 of its 1048576 bytes: the event stream ended inside a message", long, eventstream.ErrTruncated},
		{"a header of an unknown type", "eventstream: message at byte %d: header :event-type: unknown value type 42: not an event stream message", unknownType, eventstream.ErrBadMessage},
		{"a payload that is not JSON", "bedrock: message at byte %d: the payload is not JSON (invalid character 'n' looking for beginning of object key string): not a Bedrock chunk", chunk(t, `{not json`), ErrBadChunk},
		{"no bytes", `bedrock: message at byte %d: the payload has no "bytes": not a Bedrock chunk`, chunk(t, `{"b":"e30="}`), ErrBadChunk},
		{"bytes that are not base64", `bedrock: message at byte %d: "bytes" is not base64 (illegal base64 data at input byte 3): not a Bedrock chunk`, chunk(t, `{"bytes":"e30*"}`), ErrBadChunk},
		{"bytes that are not JSON", `bedrock: message at byte %d: "bytes" is not a JSON event (invalid character 'h' looking for beginning of value): not a Bedrock chunk`, chunk(t, `{"bytes":"`+base64.StdEncoding.EncodeToString([]byte("hello"))+`"}`), ErrBadChunk},
		{"an unknown message type", `bedrock: message at byte %d: :message-type "notice", neither event nor exception: not a Bedrock chunk`, message(t, "{}", ":message-type", "notice"), ErrBadChunk},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := append(append([]byte(nil), head...), tt.tail...)
			if tt.name == "a body that is not an event stream" {
				body = tt.tail
			}
			got, err := Bedrock.Merge(bytes.NewReader(body))
			want := strings.Replace(tt.want, "%d", strconv.Itoa(at), 1)
			if err == nil || !strings.HasSuffix(err.Error(), want) || !errors.Is(err, tt.is) {
				t.Fatalf("error %v\nwant one ending in %s", err, want)
			}
			if tt.name != "a body that is not an event stream" && (got == nil || got.Text != "kept") {
				t.Errorf("the turn so far was lost: %+v", got)
			}
		})
	}
}

// fixCRC recomputes a message's two CRCs after an edit.
func fixCRC(m []byte) []byte {
	binary.BigEndian.PutUint32(m[8:], crc32.ChecksumIEEE(m[:8]))
	n := len(m) - 4
	binary.BigEndian.PutUint32(m[n:], crc32.ChecksumIEEE(m[:n]))
	return m
}

// An exception mid-stream is a *agent.StreamError whose type is the
// exception's name, after the events before it merged.
func TestBedrockException(t *testing.T) {
	for _, exception := range []string{"throttlingException", "modelStreamErrorException", "internalServerException", "serviceUnavailableException", "validationException"} {
		body := chunk(t, `{"bytes":"`+base64.StdEncoding.EncodeToString([]byte(`{"type":"message_start","message":{"id":"msg_1"}}`))+`"}`)
		body = append(body, message(t, `{"message":"it failed"}`, ":exception-type", exception, ":content-type", "application/json", ":message-type", "exception")...)
		_, err := Bedrock.Merge(bytes.NewReader(body))
		var se *agent.StreamError
		if !errors.As(err, &se) || se.Type != exception || se.Message != "it failed" {
			t.Errorf("%s: %v", exception, err)
		}
	}
}

// A request to Bedrock: anthropic_version first, no model, no stream; the
// path carries the model (an ARN's slashes escaped); Decode refuses the
// keys Bedrock refuses.
func TestBedrockRequest(t *testing.T) {
	body, err := BedrockBody("ignored", []agent.Message{{Role: agent.RoleSystem, Content: "sys"}, {Role: agent.RoleUser, Content: "hi"}},
		[]tools.Definition{{Type: "function", Function: tools.Function{Name: "glob", Description: "d", Parameters: []byte(`{"type":"object"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"anthropic_version":"bedrock-2023-05-31","max_tokens":8192,"system":"sys","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"tools":[{"name":"glob","description":"d","input_schema":{"type":"object"}}]}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
	req, err := Bedrock.RequestOf("/s/case/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream", body)
	if err != nil || req.Model != "us.anthropic.claude-sonnet-4-5-20250929-v1:0" || !req.Stream || len(req.Messages) != 2 {
		t.Errorf("RequestOf: %+v, %v", req, err)
	}
	arn := "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc"
	if got := Bedrock.Path(arn); got != "/model/arn:aws:bedrock:us-east-1:123456789012:application-inference-profile%2Fabc/invoke-with-response-stream" {
		t.Errorf("Path(arn) = %s", got)
	}
	if m, stream := bedrockPathModel("/model/" + arn + "/invoke"); m != arn || stream {
		t.Errorf("the whole path of an ARN: %q, %v", m, stream)
	}
	for key, want := range map[string]string{
		`{"model":"m","anthropic_version":"bedrock-2023-05-31","messages":[]}`:   "extraneous key [model] is not permitted",
		`{"anthropic_version":"bedrock-2023-05-31","stream":true,"messages":[]}`: "extraneous key [stream] is not permitted",
		`{"max_tokens":1,"messages":[]}`:                                         "required key [anthropic_version] not found",
	} {
		if _, err := BedrockDecode([]byte(key)); err == nil || err.Error() != want {
			t.Errorf("Decode(%s) = %v, want %s", key, err, want)
		}
	}
}

// FuzzBedrockMerge: any bytes, framed or not, merge without a panic or a
// hang, and a byte at a time the same as whole.
func FuzzBedrockMerge(f *testing.F) {
	paths, _ := filepath.Glob("testdata/bedrock/*.eventstream")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		whole, werr := Bedrock.Merge(bytes.NewReader(body))
		bytewise, berr := Bedrock.Merge(iotest.OneByteReader(bytes.NewReader(body)))
		if !cmp.Equal(whole, bytewise) || streamtest.ErrText(werr) != streamtest.ErrText(berr) {
			t.Fatalf("whole %+v, %v; a byte at a time %+v, %v", whole, werr, bytewise, berr)
		}
	})
}

// BenchmarkMergeBedrockStream is the Messages benchmark's stream framed as
// Bedrock sends it, at 16 and 64 MiB of events: the heap's rise
// (peak-heap-MiB, garbage not yet collected included) stays the same
// however long the stream, one message held at a time.
func BenchmarkMergeBedrockStream(b *testing.B) {
	for _, size := range []int{16 << 20, 64 << 20} {
		logical, calls := benchstream.Messages(size)
		var stream []byte
		for _, ev := range splitEvents(logical) {
			stream = append(stream, Bedrock.FrameEvent(ev)...)
		}
		b.Run(strconv.Itoa(size>>20)+"MiB", func(b *testing.B) {
			b.SetBytes(int64(len(stream)))
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				var turn *agent.Turn
				var err error
				peak = max(peak, benchstream.PeakHeap(func() { turn, err = Bedrock.Merge(bytes.NewReader(stream)) }))
				if err != nil || len(turn.ToolCalls) != calls {
					b.Fatalf("merged %d calls (want %d): %v", len(turn.ToolCalls), calls, err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

func splitEvents(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.Index(b, []byte("\n\n"))
		if i < 0 {
			return append(out, b)
		}
		out, b = append(out, b[:i+2]), b[i+2:]
	}
	return out
}

// A chunk's payload in any member order, padded or with escaped slashes,
// reads as the same event: the fast path takes Bedrock's own two shapes,
// the JSON decoder every other.
func TestBedrockChunkShapes(t *testing.T) {
	event := `{"type":"message_start","message":{"id":"msg_1","x":"???"}}`
	b64 := base64.StdEncoding.EncodeToString([]byte(event + "  "))
	escaped := strings.ReplaceAll(b64, "/", `\/`)
	if escaped == b64 {
		t.Fatalf("%s has no slash to escape", b64)
	}
	for _, payload := range []string{
		`{"bytes":"` + b64 + `"}`,
		`{"bytes":"` + b64 + `","p":"abcdefgh"}`,
		`{"p":"abcd","bytes":"` + b64 + `"}`,
		`{"bytes":"` + escaped + `"}`,
		`{ "bytes" : "` + b64 + `" }`,
	} {
		got, err := io.ReadAll(Bedrock.LogicalStream(bytes.NewReader(chunk(t, payload))))
		if want := "event: message_start\ndata: " + event + "  \n\n"; err != nil || string(got) != want {
			t.Errorf("%s:\n got %q, %v\nwant %q", payload, got, err, want)
		}
	}
}
