package converse

import (
	"bytes"
	"errors"
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
	"github.com/agentvcr/agentvcr/wire/internal/bedrock"
	"github.com/google/go-cmp/cmp"
)

// framed is a logical stream, every event framed.
func framed(logical string) []byte {
	var out []byte
	for _, ev := range strings.SplitAfter(logical, "\n\n") {
		out = append(out, Format.FrameEvent([]byte(ev))...)
	}
	return out
}

// The turn Write makes merges back, framed or as events, with its ids,
// arguments (escapes, CJK) and stop reason; usage comes from metadata.
func TestMergeWhatItWrites(t *testing.T) {
	turn := &agent.Turn{Text: "看 \"a\\b\" 😀", ToolCalls: []agent.ToolCall{
		{ID: "tooluse_given", Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"数据/a \"b\".txt"}`}},
		{Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"**/*.go"}`}},
	}}
	logical := strings.Join(Write("m", "c", 0, turn), "")
	for name, body := range map[string][]byte{"logical": []byte(logical), "framed": framed(logical)} {
		got, err := Merge(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := &agent.Turn{Text: turn.Text, FinishReason: "tool_use", ToolTurn: true, ToolCalls: []agent.ToolCall{
			{ID: "tooluse_given", Type: "function", Function: turn.ToolCalls[0].Function},
			{ID: toolUseID("c", 0, 1), Type: "function", Function: turn.ToolCalls[1].Function},
		}, Usage: &agent.Usage{PromptTokens: 100, CompletionTokens: 13, TotalTokens: 113}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// Shapes a lenient merger takes: a delta for a block that never started
// (a call with no name, id tooluse_<index>), reasoning with its signature,
// an input that is empty, members and event types it does not know.
func TestMergeLenient(t *testing.T) {
	logical := "event: messageStart\ndata: {\"messageStart\":{\"role\":\"assistant\"}}\n\n" +
		"data: {\"contentBlockDelta\":{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"text\":\"why\"}}}}\n\n" +
		"data: {\"contentBlockDelta\":{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"signature\":\"sig\"}}}}\n\n" +
		"data: {\"contentBlockDelta\":{\"contentBlockIndex\":2,\"delta\":{\"toolUse\":{\"input\":\"{\\\"a\\\":1}\"}}}}\n\n" +
		"data: {\"contentBlockStart\":{\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"t1\",\"name\":\"glob\"}},\"p\":\"abc\"}}\n\n" +
		"data: {\"somethingNew\":{\"x\":1}}\n\n" +
		"data: {\"messageStop\":{\"stopReason\":\"end_turn\"}}\n\n"
	got, err := Merge(strings.NewReader(logical))
	if err != nil {
		t.Fatal(err)
	}
	want := &agent.Turn{FinishReason: "end_turn", ToolTurn: true, Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "why", Signature: "sig"}},
		ToolCalls: []agent.ToolCall{
			{ID: "t1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: "{}"}},
			{ID: "tooluse_2", Type: "function", Function: agent.FunctionCall{Arguments: `{"a":1}`}},
		}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Every bad input is an error that says what and where, never a panic,
// and what merged before it comes back.
func TestMergeBadInput(t *testing.T) {
	start := bedrock.EventMessage("messageStart", []byte(`{"role":"assistant"}`))
	text := bedrock.EventMessage("contentBlockDelta", []byte(`{"contentBlockIndex":0,"delta":{"text":"kept"}}`))
	head := append(append([]byte(nil), start...), text...)
	at := len(head)
	tests := []struct {
		name, want string
		tail       []byte
		is         error
	}{
		{"a payload that is not JSON", "converse: message at byte %d: contentBlockDelta: the payload is not a JSON object: not a ConverseStream event", bedrock.EventMessage("contentBlockDelta", []byte("{not")), ErrBadEvent},
		{"a payload that is an array", "converse: message at byte %d: metadata: the payload is not a JSON object: not a ConverseStream event", bedrock.EventMessage("metadata", []byte("[1]")), ErrBadEvent},
		{"a message of no type", `converse: message at byte %d: :message-type "", :event-type "": not a ConverseStream event`, mustAppend(t, eventstream.Message{Payload: []byte("{}")}), ErrBadEvent},
		{"a truncated message", "eventstream: message at byte %d: 30 of its 145 bytes: the event stream ended inside a message", bedrock.EventMessage("messageStop", []byte(`{"stopReason":"end_turn","padding":"xxxxxxxxxx"}`))[:30], eventstream.ErrTruncated},
		{"a bad CRC", "message CRC", flipCRC(bedrock.EventMessage("messageStop", []byte(`{"stopReason":"end_turn"}`))), eventstream.ErrBadMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge(bytes.NewReader(append(append([]byte(nil), head...), tt.tail...)))
			want := strings.Replace(tt.want, "%d", strconv.Itoa(at), 1)
			if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, tt.is) {
				t.Fatalf("error %v\nwant one with %s", err, want)
			}
			if got == nil || got.Text != "kept" {
				t.Errorf("the turn so far was lost: %+v", got)
			}
		})
	}
	// an exception: a stream error of its type, after what came before
	got, err := Merge(bytes.NewReader(append(append([]byte(nil), head...), bedrock.ExceptionMessage("modelStreamErrorException", "it failed")...)))
	var se *agent.StreamError
	if !errors.As(err, &se) || se.Type != "modelStreamErrorException" || se.Message != "it failed" || got.Text != "kept" {
		t.Errorf("exception: %+v, %v", got, err)
	}
	// no messageStop: truncated
	if _, err := Merge(bytes.NewReader(head)); !errors.Is(err, agent.ErrTruncatedStream) {
		t.Errorf("no messageStop: %v", err)
	}
}

func mustAppend(t *testing.T, m eventstream.Message) []byte {
	b, err := eventstream.Append(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func flipCRC(m []byte) []byte {
	m[len(m)-1] ^= 0xff
	return m
}

// The request: system, messages of blocks, toolConfig, inferenceConfig;
// Decode reads it back to the same messages.
func TestBodyAndDecode(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys"},
		{Role: agent.RoleUser, Content: "hi"},
		{Role: agent.RoleAssistant, Content: "look", ToolCalls: []agent.ToolCall{{ID: "t1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"*"}`}}}},
		{Role: agent.RoleTool, ToolCallID: "t1", Content: "a.go"},
		{Role: agent.RoleUser, Content: "and?"},
	}
	body, err := Body("ignored", msgs, []tools.Definition{{Type: "function", Function: tools.Function{Name: "glob", Description: "d", Parameters: []byte(`{"type":"object"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"role":"user","content":[{"text":"hi"}]},{"role":"assistant","content":[{"text":"look"},{"toolUse":{"toolUseId":"t1","name":"glob","input":{"pattern":"*"}}}]},` +
		`{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"a.go"}]}},{"text":"and?"}]}],"system":[{"text":"sys"}],` +
		`"toolConfig":{"tools":[{"toolSpec":{"name":"glob","description":"d","inputSchema":{"json":{"type":"object"}}}}]},"inferenceConfig":{"maxTokens":8192}}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
	req, err := Format.RequestOf("/s/c/model/anthropic.claude-sonnet-4-5-20250929-v1:0/converse-stream", body)
	if err != nil || req.Model != "anthropic.claude-sonnet-4-5-20250929-v1:0" || !req.Stream {
		t.Fatalf("RequestOf: %+v, %v", req, err)
	}
	if diff := cmp.Diff(msgs, req.Messages); diff != "" {
		t.Errorf("Decode (-sent +read):\n%s", diff)
	}
}

// The API's rules, each refused with its own message.
func TestCheck(t *testing.T) {
	call := func(id string) agent.Message {
		return agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: id, Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: "{}"}}}}
	}
	user := agent.Message{Role: agent.RoleUser, Content: "hi"}
	for name, tt := range map[string]struct {
		body string
		want string
	}{
		"an assistant first": {`{"messages":[{"role":"assistant","content":[{"text":"x"}]}]}`, "A conversation must start with a user message."},
		"two users in a row": {`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"user","content":[{"text":"b"}]}]}`, "A conversation must alternate between user and assistant roles."},
		"a result missing":   {`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"g","input":{}}}]},{"role":"user","content":[{"text":"b"}]}]}`, "Expected toolResult blocks at messages.2.content for the following Ids: t1"},
		"a result too many":  {`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"text":"x"}]},{"role":"user","content":[{"toolResult":{"toolUseId":"t9","content":[]}}]}]}`, "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn."},
		"an id twice":        {`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"g","input":{}}},{"toolUse":{"toolUseId":"t1","name":"g","input":{}}}]}]}`, "messages.1.content.1: toolUse id t1 appears twice"},
		"an empty id":        {`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"","name":"g","input":{}}}]}]}`, "messages.1.content.0.toolUse.toolUseId: an empty id"},
	} {
		_, err := Decode([]byte(tt.body))
		if !errors.Is(err, agent.ErrInvalidMessages) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %s", name, err, tt.want)
		}
	}
	if err := Check([]agent.Message{user, call("t1"), {Role: agent.RoleTool, ToolCallID: "t1", Content: "r"}}); err != nil {
		t.Errorf("a valid conversation: %v", err)
	}
}

// FuzzMerge: any bytes merge without a panic or a hang, the same whole
// and a byte at a time.
func FuzzMerge(f *testing.F) {
	paths, _ := filepath.Glob("testdata/converse/*.eventstream")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		whole, werr := Merge(bytes.NewReader(body))
		bytewise, berr := Merge(iotest.OneByteReader(bytes.NewReader(body)))
		if !cmp.Equal(whole, bytewise) || streamtest.ErrText(werr) != streamtest.ErrText(berr) {
			t.Fatalf("whole %+v, %v; a byte at a time %+v, %v", whole, werr, bytewise, berr)
		}
	})
}

// BenchmarkMergeConverseStream64MiB: a 64 MiB ConverseStream answer (the
// Messages benchmark's calls, written by Write and framed); memory stays
// flat, one message held at a time.
func BenchmarkMergeConverseStream64MiB(b *testing.B) {
	turn := &agent.Turn{}
	for i := 0; ; i++ {
		turn.ToolCalls = append(turn.ToolCalls, agent.ToolCall{Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: `{"pattern":"` + strings.Repeat("x", 4000) + `"}`}})
		if len(turn.ToolCalls)*4100*12 > 64<<20 {
			break
		}
	}
	stream := framed(strings.Join(Write("m", "bench", 0, turn), ""))
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		var got *agent.Turn
		var err error
		peak = max(peak, benchstream.PeakHeap(func() { got, err = Merge(bytes.NewReader(stream)) }))
		if err != nil || len(got.ToolCalls) != len(turn.ToolCalls) {
			b.Fatalf("merged %d calls (want %d): %v", len(got.ToolCalls), len(turn.ToolCalls), err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}
