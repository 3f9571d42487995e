package quirk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/golden"
	"github.com/agentvcr/agentvcr/wire/converse"
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"github.com/google/go-cmp/cmp"
)

// TestConverseFixtures writes the framed fixtures of wire/converse (as
// goldens: go test -update rewrites them) from the clean turn of the
// Bedrock fixtures, framed by our writer and edited by each Converse
// quirk; they are made here, not captured from Bedrock. Each is checked
// for what it must merge to; `agentvcr merge`'s goldens beside them pin
// the whole summary.
func TestConverseFixtures(t *testing.T) {
	logical := []byte(strings.Join(converse.Format.Write("m", "converse", 0, &bedrockTurn), ""))
	clean := sse.Framed(converse.Format, logical)
	apply := func(name string) []byte {
		q, ok := ByName(name)
		if !ok {
			t.Fatalf("no quirk %s", name)
		}
		out, err := q.Apply(clean, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !converse.Format.Framing.IsFramed(out) {
			t.Fatalf("%s gives a framed stream back as events", name)
		}
		return out
	}
	fixtures := []struct {
		name string
		body []byte
	}{
		{"clean_text_then_tool_use", clean},
		{"padding", apply("converse_padding")},
		{"input_whole", apply("converse_input_whole")},
		{"end_turn_with_calls", apply("converse_end_turn_with_calls")},
		{"unknown_event_type", apply("converse_unknown_event")},
		{"throttled_midstream", apply("converse_throttled_midstream")},
		{"cut_before_stop", apply("converse_cut_before_stop")},
		{"truncated_inside_message", clean[:len(clean)-7]},
	}
	want, err := converse.Merge(bytes.NewReader(logical))
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range fixtures {
		golden.Check(t, "../../wire/converse/testdata/converse/"+fx.name+".eventstream", fx.body)
		got, err := converse.Merge(bytes.NewReader(fx.body))
		switch fx.name {
		case "end_turn_with_calls":
			if err != nil || !cmp.Equal(want.ToolCalls, got.ToolCalls) || got.FinishReason != "end_turn" || !got.ToolTurn {
				t.Errorf("%s merges to %+v, %v", fx.name, got, err)
			}
		case "throttled_midstream":
			var se *agent.StreamError
			if !errors.As(err, &se) || se.Type != "throttlingException" {
				t.Errorf("%s: %v, want a throttlingException", fx.name, err)
			}
		case "cut_before_stop":
			if !errors.Is(err, agent.ErrTruncatedStream) {
				t.Errorf("%s: %v, want a truncated stream", fx.name, err)
			}
		case "truncated_inside_message":
			if !errors.Is(err, eventstream.ErrTruncated) {
				t.Errorf("%s: %v, want ErrTruncated", fx.name, err)
			}
		default:
			if err != nil || !cmp.Equal(want, got) {
				t.Errorf("%s merges to %+v, %v; want the clean turn %+v", fx.name, got, err, want)
			}
		}
	}
}
