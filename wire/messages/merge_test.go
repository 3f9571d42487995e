package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// Every Messages fixture opens with a comment line saying which shape it
// reproduces and where it was seen. Their goldens are what agentvcr merge
// prints (internal/cli's TestMergeFixtures).
func TestMessagesFixturesSayWhatTheyReproduce(t *testing.T) {
	for _, path := range streamtest.Fixtures(t, "testdata/streams") {
		if reason := streamtest.Reason(t, path); len(reason) < 20 {
			t.Errorf("%s: the first comment %q is too short to say what it reproduces", path, reason)
		}
	}
}

func mergeMessagesFixture(t *testing.T, name string) (*agent.Turn, error) {
	t.Helper()
	data, err := os.ReadFile("testdata/streams/" + name + ".sse")
	if err != nil {
		t.Fatal(err)
	}
	return Merge(bytes.NewReader(data))
}

// An error keeps what was merged so far and says which kind it is; the
// partial call is there to see, and the loop drops it (TestLoopMessages...).
func TestMergeMessagesErrorKeepsPartialTurn(t *testing.T) {
	tests := []struct {
		reason  string
		fixture string
		is      error // errors.Is target, or nil for a *StreamError
		want    *agent.Turn
	}{
		{"overloaded after text", "error_overloaded_after_text", nil,
			&agent.Turn{Text: "Let me look "}},
		{"overloaded in a call's arguments", "error_overloaded_partial_call", nil,
			&agent.Turn{Text: "Searching.", ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("toolu_01A09q90qw90lq917835lq9", "grep", `{"pattern":"div`)}}},
		{"cut before message_stop", "cut_before_message_stop", agent.ErrTruncatedStream,
			&agent.Turn{ToolTurn: true, ToolCalls: []agent.ToolCall{streamtest.Call("toolu_01A09q90qw90lq917835lq9", "glob", `{"pattern":`)}}},
		{"a second message", "second_message_in_stream", ErrSecondMessage,
			&agent.Turn{Text: "First.", FinishReason: "end_turn"}},
	}
	for _, tt := range tests {
		got, err := mergeMessagesFixture(t, tt.fixture)
		if tt.is == nil {
			var se *agent.StreamError
			if !errors.As(err, &se) || se.Type != "overloaded_error" {
				t.Errorf("%s: error = %v, want a *StreamError of type overloaded_error", tt.reason, err)
			}
		} else if !errors.Is(err, tt.is) {
			t.Errorf("%s: error = %v, want one matching %v", tt.reason, err, tt.is)
		}
		got.Usage = nil
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: partial turn (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestMergeMessagesUsage(t *testing.T) {
	tests := []struct {
		reason  string
		fixture string
		want    *agent.Usage
	}{
		{"only the final message_delta has the real counts; cache reads count as input", "usage_final_message_delta",
			&agent.Usage{PromptTokens: 2544, CompletionTokens: 37, TotalTokens: 2581}},
		{"input from message_start, output from message_delta", "clean_text_then_tool_use",
			&agent.Usage{PromptTokens: 472, CompletionTokens: 89, TotalTokens: 561}},
	}
	for _, tt := range tests {
		got, err := mergeMessagesFixture(t, tt.fixture)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got.Usage); diff != "" {
			t.Errorf("%s: usage (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestMergeMessagesBadEvents(t *testing.T) {
	start := `data: {"type":"message_start","message":{"id":"msg_1"}}` + "\n\n"
	tool := `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"glob","input":{}}}` + "\n\n"
	tests := []struct {
		reason string
		stream string
		want   string
	}{
		{"data that is not JSON", start + "data: {oops\n\n",
			"event 2 is not a valid event: invalid character 'o' looking for beginning of object key string"},
		{"a delta for a block that never started", start + `data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"x"}}` + "\n\n",
			"event 2: delta for content block 3, which never started"},
		{"a block started twice", start + tool + tool,
			"event 3: content block 0 started twice"},
		{"a start without index", start + `data: {"type":"content_block_start","content_block":{"type":"text","text":""}}` + "\n\n",
			"event 2: content_block_start without index or content_block"},
		{"a delta without index", start + `data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}` + "\n\n",
			"event 2: content_block_delta without index"},
		{"an empty stream", "", "stream ended without a stop_reason or message_stop"},
	}
	for _, tt := range tests {
		_, err := Merge(strings.NewReader(tt.stream))
		if fmt.Sprint(err) != tt.want {
			t.Errorf("%s: error = %v, want %s", tt.reason, err, tt.want)
		}
	}
}

// FuzzMergeMessagesRechunk: any re-chunking of a Messages fixture's bytes
// merges to the same turn and the same error as reading it whole.
func FuzzMergeMessagesRechunk(f *testing.F) {
	streamtest.FuzzRechunk(f, streamtest.Fixtures(f, "testdata/streams"), Merge)
}

// FuzzMergeMessagesArgumentSplits: any split of the calls' partial_json into
// pieces, interleaved across blocks in any order, with empty pieces and pings
// anywhere and the placeholder input {} on every start, merges to the same
// calls.
func FuzzMergeMessagesArgumentSplits(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("\xff\x80\x13\x07\x42 some longer seed that splits differently"))
	f.Fuzz(func(t *testing.T, plan []byte) {
		stream := splitMessagesStream(streamtest.FuzzCalls, plan)
		turn, err := Merge(strings.NewReader(stream))
		if err != nil {
			t.Fatalf("%v\nstream:\n%s", err, stream)
		}
		if diff := cmp.Diff(streamtest.FuzzCalls, turn.ToolCalls); diff != "" {
			t.Errorf("calls (-want +got):\n%s\nstream:\n%s", diff, stream)
		}
	})
}

// splitMessagesStream writes the calls as tool_use blocks driven by plan:
// each byte picks the block that sends next and its piece length in runes
// (0 to 7: 0 is an empty partial_json, or a ping when the bit 0x08 is set);
// after the plan, pieces are seven runes.
// A block's start always comes before its pieces; block i has index i.
func splitMessagesStream(calls []agent.ToolCall, plan []byte) string {
	var b strings.Builder
	emit := func(v any) {
		data, _ := json.Marshal(v)
		b.WriteString("data: " + string(data) + "\n\n")
	}
	emit(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_fuzz"}})
	rest := make([]string, len(calls))
	started := make([]bool, len(calls))
	for i, c := range calls {
		rest[i] = c.Function.Arguments
		if rest[i] == "{}" {
			rest[i] = "" // a zero-argument call sends no piece
		}
	}
	for open, k := len(calls), 0; open > 0; k++ {
		p := byte(0x70) // once the plan is used up: seven-rune pieces
		if k < len(plan) {
			p = plan[k]
		}
		i := int(p) % len(calls)
		for ; started[i] && rest[i] == ""; i = (i + 1) % len(calls) {
		}
		if !started[i] {
			started[i] = true
			emit(map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": calls[i].ID, "name": calls[i].Function.Name, "input": map[string]any{}}})
		} else {
			n := int(p>>4) % 8
			if n == 0 && p&0x08 != 0 {
				emit(map[string]any{"type": "ping"})
				continue
			}
			cut := 0
			for r := 0; r < n && cut < len(rest[i]); r++ {
				_, size := utf8.DecodeRuneInString(rest[i][cut:])
				cut += size
			}
			emit(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": rest[i][:cut]}})
			rest[i] = rest[i][cut:]
		}
		if started[i] && rest[i] == "" {
			open--
		}
	}
	emit(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}})
	emit(map[string]any{"type": "message_stop"})
	return b.String()
}

// The fast path and encoding/json merge every fixture to the same turn and
// error.
func TestMergeMessagesFastPathMatchesJSON(t *testing.T) {
	for _, path := range streamtest.Fixtures(t, "testdata/streams") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fastTurn, fastErr := merge(bytes.NewReader(data), false)
		jsonTurn, jsonErr := merge(bytes.NewReader(data), true)
		if diff := cmp.Diff(jsonTurn, fastTurn); diff != "" {
			t.Errorf("%s: turn (-json +fast):\n%s", path, diff)
		}
		if fmt.Sprint(fastErr) != fmt.Sprint(jsonErr) {
			t.Errorf("%s: error %v, encoding/json gave %v", path, fastErr, jsonErr)
		}
	}
}

// FuzzMergeMessagesEvent: one event's data, after a text and a tool_use
// block started, merges to the same turn and error on the fast path as with
// encoding/json (duplicate keys, keys in another case, escapes, nulls...).
func FuzzMergeMessagesEvent(f *testing.F) {
	for _, seed := range []string{
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"h\u00e9 \ud83d\ude00"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","text":"y"}}`,
		`{"type":"content_block_delta","Index":1,"delta":{"type":"input_json_delta","partial_json":"z"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"partial_json":null,"type":"input_json_delta"}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t2","name":"grep","input":{}}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"message_stop"}`,
		`{"type":"ping","index":"x"}`,
		// The known heads the fast path compares as bytes, then anything.
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"a"},"type":"ping"}`,
		`{"type":"content_block_delta","index": 1 ,"delta":{"type":"input_json_delta","partial_json": "a" }}`,
		`{"type":"content_block_delta","index":1.0,"delta":{"type":"input_json_delta","partial_json":"a"}}`,
		`{"type":"content_block_delta","index":1,"index":0,"delta":{"type":"text_delta","text":"a"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"a","text":"b"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"a","type":"text_delta"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":null}}`,
		"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\u00e9\xff\"}}",
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}`,
	} {
		f.Add(seed)
	}
	prefix := `data: {"type":"message_start","message":{"id":"msg_1"}}` + "\n\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		`data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"glob","input":{}}}` + "\n\n"
	f.Fuzz(func(t *testing.T, event string) {
		if strings.ContainsAny(event, "\r\n") {
			return // one data line
		}
		stream := prefix + "data: " + event + "\n\n"
		fastTurn, fastErr := merge(strings.NewReader(stream), false)
		jsonTurn, jsonErr := merge(strings.NewReader(stream), true)
		if diff := cmp.Diff(jsonTurn, fastTurn); diff != "" {
			t.Errorf("turn (-json +fast):\n%s", diff)
		}
		if fmt.Sprint(fastErr) != fmt.Sprint(jsonErr) {
			t.Errorf("error %v, encoding/json gave %v", fastErr, jsonErr)
		}
	})
}
