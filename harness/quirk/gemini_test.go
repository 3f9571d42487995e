package quirk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

func TestGeminiQuirkGoldens(t *testing.T) {
	clean := readFixture(t, "gemini_clean.sse")
	for _, q := range geminiQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			if !strings.HasPrefix(q.Name, "gemini_") || q.Doc == "" {
				t.Errorf("want the gemini_ prefix and a Doc")
			}
			got, err := q.Apply(clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, q.Name+".sse.golden", got)
		})
	}
}

// TestGeminiQuirkSemantics merges every transformed stream with the Gemini
// merger: a benign quirk gives the clean turn's text and calls (new ids when
// it drops them, a warning when it says so); the others give the error or
// finish they stand for.
func TestGeminiQuirkSemantics(t *testing.T) {
	clean := readFixture(t, "gemini_clean.sse")
	base, err := gemini.Merge(bytes.NewReader(clean))
	if err != nil || len(base.ToolCalls) != 2 || gemini.Signature(base.ToolCalls[1]) != "c2lnbmF0dXJl" {
		t.Fatalf("clean fixture merged to %+v, %v", base, err)
	}
	for _, q := range geminiQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			body, err := q.Apply(clean, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, err := gemini.Merge(bytes.NewReader(body))
			switch q.Name {
			case "gemini_error_midstream":
				var se *agent.StreamError
				if !errors.As(err, &se) || se.Type != "UNAVAILABLE" || got.Text != "Let me s" {
					t.Errorf("err = %v, text %q; want UNAVAILABLE after the first piece", err, got.Text)
				}
				return
			case "gemini_malformed_function_call":
				if !errors.Is(err, gemini.ErrMalformedFunctionCall) || got.FinishReason != "MALFORMED_FUNCTION_CALL" || len(got.ToolCalls) != 0 {
					t.Errorf("err = %v, turn %+v; want ErrMalformedFunctionCall, no calls and the finish", err, got)
				}
				return
			case "gemini_cut_before_finish":
				if !errors.Is(err, agent.ErrTruncatedStream) || len(got.ToolCalls) != 0 {
					t.Errorf("err = %v, %d calls; want a truncated stream without the calls", err, len(got.ToolCalls))
				}
				return
			case "gemini_args_streamed_cut":
				if !errors.Is(err, agent.ErrTruncatedStream) {
					t.Errorf("err = %v; want a truncated stream", err)
				}
				return
			case "gemini_error_line":
				var se *agent.StreamError
				if !errors.As(err, &se) || se.Type != "CANCELLED" || se.Code != "499" || got.Text != "Let me s" {
					t.Errorf("err = %v, text %q; want CANCELLED 499 after the first piece", err, got.Text)
				}
				return
			case "gemini_malformed_after_call":
				if !errors.Is(err, gemini.ErrMalformedFunctionCall) || !strings.Contains(err.Error(), "Malformed function call: the arguments do not parse") {
					t.Errorf("err = %v; want ErrMalformedFunctionCall with its finishMessage", err)
				}
				return
			case "gemini_prompt_blocked":
				var be *gemini.BlockedError
				if !errors.Is(err, gemini.ErrBlocked) || !errors.As(err, &be) || !be.Prompt || be.Reason != "PROHIBITED_CONTENT" {
					t.Errorf("err = %v; want the prompt blocked for PROHIBITED_CONTENT", err)
				}
				return
			}
			if !q.Benign || err != nil {
				t.Fatalf("benign %v, err %v", q.Benign, err)
			}
			want := base.ToolCalls
			if q.DropsIDs {
				want = []agent.ToolCall{base.ToolCalls[0], base.ToolCalls[1]}
				want[0].ID, want[1].ID = gemini.CallID(0), gemini.CallID(1)
			}
			if diff := cmp.Diff(base.Text, got.Text); diff != "" {
				t.Errorf("text (-clean +quirk):\n%s", diff)
			}
			switch q.Name {
			case "gemini_signature_first_only": // the clean turn's signature, on the first call
				if gemini.Signature(got.ToolCalls[0]) != "c2lnbmF0dXJl" || gemini.Signature(got.ToolCalls[1]) != "" {
					t.Errorf("signatures %q, %q; want the clean one on the first call only", gemini.Signature(got.ToolCalls[0]), gemini.Signature(got.ToolCalls[1]))
				}
				want, got.ToolCalls = withoutExtra(want), withoutExtra(got.ToolCalls)
			case "gemini_signature_empty_text": // the signature is the turn's, on no call
				if len(got.Thinking) != 1 || got.Thinking[0].Type != agent.ThinkingRedacted || got.Thinking[0].Data != "c2lnbmF0dXJl" {
					t.Errorf("thinking %+v; want the signature kept for the turn", got.Thinking)
				}
				want, got.ToolCalls = withoutExtra(want), withoutExtra(got.ToolCalls)
			}
			if diff := cmp.Diff(want, got.ToolCalls); diff != "" {
				t.Errorf("calls (-clean +quirk):\n%s", diff)
			}
			if (len(got.Warnings) > 0) != q.Warns {
				t.Errorf("warnings %q, quirk Warns %v", got.Warnings, q.Warns)
			}
		})
	}
}

// The call quirks pass a stream without calls through unchanged in meaning,
// or refuse it.
func TestGeminiQuirksTextOnly(t *testing.T) {
	text := []byte(strings.Join(gateway.Stream(gemini.Format, "m", "s", 0, gateway.ScriptTurn{Text: "只有文字。"}), ""))
	for _, q := range geminiQuirks() {
		body, err := q.Apply(text, 1)
		if errors.Is(err, ErrNotApplicable) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		got, _ := gemini.Merge(bytes.NewReader(body))
		if q.Benign && got.Text != "只有文字。" {
			t.Errorf("%s: text %q", q.Name, got.Text)
		}
	}
}

// withoutExtra are calls without their ExtraContent (the signatures).
func withoutExtra(calls []agent.ToolCall) []agent.ToolCall {
	out := make([]agent.ToolCall, len(calls))
	for i, c := range calls {
		c.ExtraContent = nil
		out[i] = c
	}
	return out
}
