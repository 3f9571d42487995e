package messages

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// msgEvents writes each data line as an event, after a message_start.
func msgEvents(lines ...string) string {
	var b strings.Builder
	b.WriteString(`data: {"type":"message_start","message":{"id":"msg_1"}}` + "\n\n")
	for _, l := range lines {
		b.WriteString("data: " + l + "\n\n")
	}
	return b.String()
}

func toolStart(index int, id, name string) string {
	return fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, index, id, name)
}

func partial(index int, js string) string {
	return fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, index, js)
}

func blockStop(index int) string {
	return fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)
}

const stopToolUse = `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`

func TestMergeMessagesReusedIndex(t *testing.T) {
	tests := []struct {
		reason string
		stream string
		want   []agent.ToolCall
	}{
		{
			reason: "id-less tool_use blocks at index 0 get ids of their own",
			stream: msgEvents(toolStart(0, "", "glob"), partial(0, `{}`), blockStop(0), toolStart(0, "", "grep"), partial(0, `{}`), blockStop(0), stopToolUse),
			want:   []agent.ToolCall{streamtest.Call("toolu_0", "glob", "{}"), streamtest.Call("toolu_0_1", "grep", "{}")},
		},
		{
			reason: "a block started at a reused index sorts after every block started before it",
			stream: msgEvents(toolStart(0, "a", "glob"), blockStop(0), toolStart(1, "b", "grep"), blockStop(1), toolStart(0, "c", "read_file"), blockStop(0), stopToolUse),
			want:   []agent.ToolCall{streamtest.Call("a", "glob", "{}"), streamtest.Call("b", "grep", "{}"), streamtest.Call("c", "read_file", "{}")},
		},
		{
			reason: "a stop twice changes nothing; a later start there is a new block",
			stream: msgEvents(toolStart(0, "a", "glob"), partial(0, `{"pattern":"*"}`), blockStop(0), blockStop(0), toolStart(0, "b", "grep"), partial(0, `{}`), blockStop(0), blockStop(0), stopToolUse),
			want:   []agent.ToolCall{streamtest.Call("a", "glob", `{"pattern":"*"}`), streamtest.Call("b", "grep", "{}")},
		},
		{
			reason: "a block prefilled in message_start, then a streamed block at its index",
			stream: `data: {"type":"message_start","message":{"id":"m","content":[{"type":"tool_use","id":"p","name":"glob","input":{"pattern":"*"}}]}}` + "\n\n" +
				"data: " + toolStart(0, "s", "grep") + "\n\ndata: " + partial(0, `{}`) + "\n\ndata: " + stopToolUse + "\n\n",
			want: []agent.ToolCall{streamtest.Call("p", "glob", `{"pattern":"*"}`), streamtest.Call("s", "grep", "{}")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			for _, jsonOnly := range []bool{false, true} {
				turn, err := merge(strings.NewReader(tt.stream), jsonOnly)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, turn.ToolCalls); diff != "" {
					t.Errorf("jsonOnly %v: calls (-want +got):\n%s", jsonOnly, diff)
				}
			}
		})
	}
}

func TestMergeMessagesStillRefused(t *testing.T) {
	tests := []struct {
		reason string
		stream string
		want   string
	}{
		{"a start at an index whose block is open", msgEvents(toolStart(0, "a", "glob"), toolStart(0, "b", "grep")),
			"event 3: content block 0 started twice"},
		{"a delta at an unknown index when the latest block did not reuse an index", msgEvents(toolStart(0, "a", "glob"), partial(1, "{}")),
			"event 3: delta for content block 1, which never started"},
		{"a delta at an unknown index once the reused block stopped", msgEvents(toolStart(0, "a", "glob"), blockStop(0), toolStart(0, "b", "grep"), blockStop(0), partial(1, "{}")),
			"event 6: delta for content block 1, which never started"},
		{"a prefilled block that is not an object", `data: {"type":"message_start","message":{"id":"m","content":[1]}}` + "\n\n",
			"event 1: message_start content block 0: json: cannot unmarshal number into Go value of type messages.msgBlockStart"},
	}
	for _, tt := range tests {
		for _, jsonOnly := range []bool{false, true} {
			_, err := merge(strings.NewReader(tt.stream), jsonOnly)
			if fmt.Sprint(err) != tt.want {
				t.Errorf("%s (jsonOnly %v): error = %v, want %s", tt.reason, jsonOnly, err, tt.want)
			}
		}
	}
}

func TestMergeMessagesMaxTokens(t *testing.T) {
	maxTokens := `{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`
	t.Run("a cut tool_use is an output limit error", func(t *testing.T) {
		turn, err := Merge(strings.NewReader(msgEvents(toolStart(0, "a", "glob"), partial(0, `{"pat`), maxTokens, `{"type":"message_stop"}`)))
		if !errors.Is(err, agent.ErrOutputLimit) {
			t.Fatalf("err = %v, want ErrOutputLimit", err)
		}
		if want := `the output token limit (stop_reason "max_tokens") cut tool call "glob" (a) before its arguments were complete; it is not run`; err.Error() != want {
			t.Errorf("err = %q, want %q", err, want)
		}
		if len(turn.ToolCalls) != 1 {
			t.Errorf("the partial turn has %d calls, want 1", len(turn.ToolCalls))
		}
	})
	t.Run("whole calls under max_tokens are a turn", func(t *testing.T) {
		turn, err := Merge(strings.NewReader(msgEvents(toolStart(0, "a", "glob"), partial(0, `{}`), blockStop(0), maxTokens)))
		if err != nil || turn.FinishReason != "max_tokens" || len(turn.ToolCalls) != 1 {
			t.Errorf("turn %+v, err %v", turn, err)
		}
	})
}
