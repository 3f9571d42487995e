package quirk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/golden"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/google/go-cmp/cmp"
)

// bedrockTurn is the turn of the Bedrock fixtures: text and two calls, one
// with escapes and CJK in its arguments.
var bedrockTurn = agent.Turn{Text: "先看看 \"src\"。", ToolCalls: []agent.ToolCall{
	{Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"src/**/*.js"}`}},
	{Type: "function", Function: agent.FunctionCall{Name: "grep", Arguments: `{"pattern":"a\\\\b \"x\" 数据"}`}},
}}

// bedrockLogical is the turn as Bedrock's Messages events, unframed.
func bedrockLogical() []byte {
	return []byte(strings.Join(messages.Bedrock.Write("anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock", 0, &bedrockTurn), ""))
}

func bedrockApply(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	q, ok := ByName(name)
	if !ok {
		t.Fatalf("no quirk %s", name)
	}
	out, err := q.Apply(body, 1)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// TestBedrockFixtures writes the framed fixtures of wire/messages (as
// goldens: go test -update rewrites them) from the clean turn, framed by
// our writer and edited by each framing quirk; they are made here, not
// captured from Bedrock. Each is checked for what it must merge to:
// `agentvcr merge`'s goldens beside them pin the whole summary.
func TestBedrockFixtures(t *testing.T) {
	clean := sse.Framed(messages.Bedrock, bedrockLogical())
	overloaded := bedrockApply(t, "messages_overloaded_midstream", bedrockLogical())
	fixtures := []struct {
		name string
		body []byte
	}{
		{"clean_text_then_tool_use", clean},
		{"padding", bedrockApply(t, "bedrock_padding", clean)},
		{"unknown_event_type", bedrockApply(t, "bedrock_unknown_event", clean)},
		{"exception_after_first_call", bedrockApply(t, "bedrock_exception_after_call", clean)},
		{"overloaded_midstream", bedrockApply(t, "bedrock_padding", overloaded)}, // framed: an exception
		{"bad_crc", bedrockApply(t, "bedrock_bad_crc", clean)},
		{"truncated_inside_message", clean[:len(clean)-10]},
	}
	want, err := messages.Merge(bytes.NewReader(bedrockLogical()))
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range fixtures {
		golden.Check(t, "../../wire/messages/testdata/bedrock/"+fx.name+".eventstream", fx.body)
		got, err := messages.Bedrock.Merge(bytes.NewReader(fx.body))
		switch fx.name {
		case "clean_text_then_tool_use", "padding", "unknown_event_type":
			if err != nil || !cmp.Equal(want, got) {
				t.Errorf("%s merges to %+v, %v; want the clean turn %+v", fx.name, got, err, want)
			}
		case "exception_after_first_call", "overloaded_midstream":
			var se *agent.StreamError
			if !errors.As(err, &se) {
				t.Errorf("%s: %v, want a stream error", fx.name, err)
			}
		case "bad_crc":
			if !errors.Is(err, eventstream.ErrBadMessage) {
				t.Errorf("%s: %v, want ErrBadMessage", fx.name, err)
			}
		case "truncated_inside_message":
			if !errors.Is(err, eventstream.ErrTruncated) {
				t.Errorf("%s: %v, want ErrTruncated", fx.name, err)
			}
		}
	}
}
