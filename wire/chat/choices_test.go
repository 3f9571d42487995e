package chat

import (
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/google/go-cmp/cmp"
)

// choiceStream writes one chunk per entry: "I:text" sends text on choice I,
// "I!" finishes choice I, "I*id" opens call id (glob) on choice I.
func choiceStream(entries ...string) string {
	var b strings.Builder
	for _, e := range entries {
		idx, rest, _ := strings.Cut(e, ":")
		var delta, finish string
		switch {
		case strings.HasSuffix(e, "!"):
			idx, delta, finish = strings.TrimSuffix(e, "!"), `{}`, `"stop"`
		case strings.Contains(e, "*"):
			var id string
			idx, id, _ = strings.Cut(e, "*")
			delta, finish = `{"tool_calls":[{"index":0,"id":"`+id+`","function":{"name":"glob","arguments":"{}"}}]}`, "null"
		default:
			delta, finish = `{"content":"`+rest+`"}`, "null"
		}
		b.WriteString(`data: {"choices":[{"index":` + idx + `,"delta":` + delta + `,"finish_reason":` + finish + "}]}\n\n")
	}
	return b.String() + "data: [DONE]\n\n"
}

func TestMergeStreamChoiceIndexes(t *testing.T) {
	tests := []struct {
		reason  string
		entries []string
		text    string
		finish  string
		calls   []string
	}{
		{"one choice", []string{"0:a", "0:b", "0!"}, "ab", "stop", nil},
		{"indexes only go up: one message in parts (z.ai GLM)", []string{"0:a", "1:b", "2*c1", "3*c2", "3!"}, "ab", "stop", []string{"c1", "c2"}},
		{"reasoning at 0, text at 1 (LiteLLM #23178)", []string{"0:a", "0:b", "1:c", "1!"}, "abc", "stop", nil},
		{"interleaved n=2: choice 0 alone", []string{"0:a", "1:X", "0:b", "1:Y", "0!", "1!"}, "ab", "stop", nil},
		{"interleaved n=3 with calls: choice 0's call only", []string{"0*c0", "1*c1", "2*c2", "0:t", "0!", "1!", "2!"}, "t", "stop", []string{"c0"}},
		{"a later choice finishes first: choice 0's finish", []string{"0:a", "1:b", "1!", "0:c", "0!"}, "ac", "stop", nil},
		{"stream begins at choice 1 and goes back: choice 1 is kept", []string{"1:a", "2:b", "1:c", "2:d", "1!"}, "ac", "stop", nil},
		{"a negative index after 0 goes down", []string{"0:a", "-1:b", "0:c", "0!"}, "ac", "stop", nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			turn, err := Merge(strings.NewReader(choiceStream(tt.entries...)))
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range turn.ToolCalls {
				ids = append(ids, c.ID)
			}
			got := []any{turn.Text, turn.FinishReason, ids}
			if diff := cmp.Diff([]any{tt.text, tt.finish, tt.calls}, got); diff != "" {
				t.Errorf("text, finish, calls (-want +got):\n%s", diff)
			}
		})
	}
}

// Several answers where choice 0 never finishes and no [DONE] comes: the
// turn is cut short even though another choice finished.
func TestMergeStreamSeveralAnswersTruncated(t *testing.T) {
	in := strings.TrimSuffix(choiceStream("0:a", "1:b", "0:c", "1!"), "data: [DONE]\n\n")
	turn, err := Merge(strings.NewReader(in))
	if err != agent.ErrTruncatedStream {
		t.Fatalf("err = %v, want ErrTruncatedStream", err)
	}
	if turn.Text != "ac" {
		t.Errorf("text = %q, want %q", turn.Text, "ac")
	}
}
