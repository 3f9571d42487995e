package quirk

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/wire/messages"
)

func TestMessagesQuirkGoldens(t *testing.T) {
	clean := readFixture(t, "messages_clean.sse")
	for _, q := range messagesQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			got, err := q.Apply(clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := q.Apply(clean, 1)
			if !bytes.Equal(got, again) {
				t.Error("two runs with the same seed gave different bytes")
			}
			checkGolden(t, ""+q.Name+".sse.golden", got)
		})
	}
}

func TestMessagesQuirkNames(t *testing.T) {
	seen := map[string]bool{}
	for _, q := range All() {
		if seen[q.Name] {
			t.Errorf("duplicate quirk %q", q.Name)
		}
		seen[q.Name] = true
	}
	for _, q := range messagesQuirks() {
		if !strings.HasPrefix(q.Name, "messages_") || q.Doc == "" {
			t.Errorf("quirk %q: want the messages_ prefix and a Doc", q.Name)
		}
		if got, ok := ByName(q.Name); !ok || got.Name != q.Name {
			t.Errorf("ByName(%q) = %q, %v", q.Name, got.Name, ok)
		}
	}
}

// TestMessagesQuirkSemantics merges every transformed stream with the
// agent's Messages merger: a benign quirk gives the clean turn's text and
// calls; the others give the error they stand for, with the calls cut.
func TestMessagesQuirkSemantics(t *testing.T) {
	clean := readFixture(t, "messages_clean.sse")
	base, err := messages.Merge(bytes.NewReader(clean))
	if err != nil {
		t.Fatal(err)
	}
	if len(base.ToolCalls) != 2 || base.ToolCalls[0].Function.Arguments != `{"pattern":"func \"(\\w+)\"","path":"src"}` {
		t.Fatalf("clean fixture merged to %+v", base)
	}
	for _, q := range messagesQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			body, err := q.Apply(clean, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, err := messages.Merge(bytes.NewReader(body))
			switch q.Name {
			case "messages_overloaded_midstream":
				var se *agent.StreamError
				if !errors.As(err, &se) || se.Type != "overloaded_error" || len(got.ToolCalls) != 1 {
					t.Errorf("err = %v, %d calls; want overloaded_error and the first call cut", err, len(got.ToolCalls))
				}
				return
			case "messages_max_tokens_cut":
				if !errors.Is(err, agent.ErrOutputLimit) || len(got.ToolCalls) != 2 || json.Valid([]byte(got.ToolCalls[1].Function.Arguments)) {
					t.Errorf("err = %v, calls %+v; want an output limit error with the last call cut", err, got.ToolCalls)
				}
				return
			case "messages_cut_before_stop":
				if !errors.Is(err, agent.ErrTruncatedStream) || len(got.ToolCalls) != 2 || got.ToolCalls[1].Function.Arguments == base.ToolCalls[1].Function.Arguments {
					t.Errorf("err = %v, calls %+v; want a truncated stream with the last call cut", err, got.ToolCalls)
				}
				return
			}
			if !q.Benign {
				t.Fatalf("no expectation for the non-benign quirk %s", q.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(base.Text, got.Text); diff != "" {
				t.Errorf("text (-clean +quirk):\n%s", diff)
			}
			if diff := cmp.Diff(base.ToolCalls, got.ToolCalls); diff != "" {
				t.Errorf("calls (-clean +quirk):\n%s", diff)
			}
			if diff := cmp.Diff(base.Usage, got.Usage); diff != "" && q.Name != "messages_usage_final_delta" {
				t.Errorf("usage (-clean +quirk):\n%s", diff)
			}
		})
	}
}

// A quirk that needs arguments to be a JSON object does not apply to a
// stream whose call has invalid arguments (the bad_args script).
func TestMessagesQuirkNotApplicable(t *testing.T) {
	body := []byte(strings.Join(gateway.Stream(messages.Format, "m", "s", 0, gateway.ScriptTurn{Calls: []gateway.ScriptCall{{Name: "glob", Arguments: `{"pattern":"*"`}}}), ""))
	for _, name := range []string{"messages_start_input_copied", "messages_start_input_only"} {
		q, _ := ByName(name)
		_, err := q.Apply(body, 1)
		if !errors.Is(err, ErrNotApplicable) || err.Error() != "block 0 arguments are not an object: quirk does not apply to this stream" {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// Every quirk leaves a stream without tool_use blocks merging to the same
// text.
func TestMessagesQuirksTextOnly(t *testing.T) {
	text := []byte(strings.Join(gateway.Stream(messages.Format, "m", "s", 0, gateway.ScriptTurn{Text: "只有文字。"}), ""))
	for _, q := range messagesQuirks() {
		body, err := q.Apply(text, 1)
		if err != nil {
			t.Errorf("%s: %v", q.Name, err)
			continue
		}
		got, err := messages.Merge(bytes.NewReader(body))
		if err != nil || got.Text != "只有文字。" || len(got.ToolCalls) != 0 {
			t.Errorf("%s: merged %+v, %v", q.Name, got, err)
		}
	}
}
