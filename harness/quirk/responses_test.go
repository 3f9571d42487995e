package quirk

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// cleanResponses is a clean Responses stream with text and two calls whose
// arguments hold escapes and non-ASCII text.
func cleanResponses() []byte {
	r := gateway.ScriptTurn{Text: "先看看代码。", Calls: []gateway.ScriptCall{
		{Name: "grep", Arguments: `{"pattern":"func \"(\\w+)\"","path":"src"}`},
		{Name: "read_file", Arguments: `{"path":"café 笔记.md"}`},
	}}
	return []byte(strings.Join(gateway.Stream(responses.Format, "m", "quirks", 0, r), ""))
}

func TestResponsesQuirkGoldens(t *testing.T) {
	clean := cleanResponses()
	checkGolden(t, "responses/clean.sse", clean)
	for _, q := range responsesQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			got, err := q.Apply(clean, 1)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := q.Apply(clean, 1)
			if !bytes.Equal(got, again) {
				t.Error("two runs gave different bytes")
			}
			checkGolden(t, "responses/"+strings.TrimPrefix(q.Name, "responses_")+".sse.golden", got)
		})
	}
}

// TestResponsesQuirkSemantics merges every transformed stream with the
// agent's Responses merger: a benign quirk gives the clean turn (with a
// warning exactly when it is marked Warns); the others give their error,
// with the turn merged before it.
func TestResponsesQuirkSemantics(t *testing.T) {
	clean := cleanResponses()
	base, err := responses.Merge(bytes.NewReader(clean))
	if err != nil || len(base.ToolCalls) != 2 || base.Warnings != nil {
		t.Fatalf("clean stream: %+v, %v", base, err)
	}
	errs := map[string]string{
		"responses_truncated":       "stream ended before response.completed",
		"responses_failed":          "stream error: The server had an error while processing your request. (type response.failed, code server_error)",
		"responses_incomplete":      "stream error: the response is incomplete (max_output_tokens) (type response.incomplete)",
		"responses_error_event":     "stream error: Rate limit reached. Please try again in 20s. (code rate_limit_exceeded)",
		"responses_second_response": "a second response in one stream: resp_quirks_1_again after resp_quirks_1 (event 27)",
	}
	for _, q := range responsesQuirks() {
		t.Run(q.Name, func(t *testing.T) {
			body, err := q.Apply(clean, 7)
			if err != nil {
				t.Fatal(err)
			}
			got, err := responses.Merge(bytes.NewReader(body))
			if q.Benign {
				if err != nil {
					t.Fatal(err)
				}
				if (got.Warnings != nil) != q.Warns {
					t.Errorf("warnings %q, Warns = %v", got.Warnings, q.Warns)
				}
				got.Warnings = nil
				if q.Reasoning {
					want := []agent.Thinking{{Type: agent.ThinkingReasoning, Text: reasoningText}}
					if diff := cmp.Diff(want, got.Thinking); diff != "" {
						t.Errorf("reasoning (-want +got):\n%s", diff)
					}
					got.Thinking = nil
				}
				if diff := cmp.Diff(base, got); diff != "" {
					t.Errorf("merged turn (-clean +quirk):\n%s", diff)
				}
				return
			}
			if q.Name == "responses_bad_args" {
				want := *base
				want.ToolCalls = append([]agent.ToolCall(nil), base.ToolCalls...)
				want.ToolCalls[0].Function.Arguments = `{"pattern":"func \"(\\w+)\"","path":"src"`
				if diff := cmp.Diff(&want, got); err != nil || diff != "" {
					t.Errorf("err %v; merged turn (-want +got):\n%s", err, diff)
				}
				return
			}
			if diff := cmp.Diff(errs[q.Name], errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			partial := *base
			partial.FinishReason, partial.Usage = "", nil
			if q.Name == "responses_second_response" {
				partial = *base
			}
			if diff := cmp.Diff(&partial, got); diff != "" {
				t.Errorf("turn merged before the error (-want +got):\n%s", diff)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestQuirksKeepToTheirFormat: a Responses transform does not apply to a
// chat stream nor a chat transform to a Responses stream; the framing
// transforms apply to both, and are benign for the Responses merger too.
func TestQuirksKeepToTheirFormat(t *testing.T) {
	chat, resp := readFixture(t, "clean.sse"), cleanResponses()
	base, err := responses.Merge(bytes.NewReader(resp))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range All() {
		var other []byte
		switch q.API {
		case "responses":
			other = chat
		case "chat":
			other = resp
		case "messages", "gemini", "bedrock", "converse":
			continue // TestEveryQuirkRefusesOtherFormats
		default:
			out, err := q.Apply(resp, 3)
			if err != nil {
				t.Errorf("%s on a Responses stream: %v", q.Name, err)
				continue
			}
			got, err := responses.Merge(bytes.NewReader(out))
			if err != nil || !cmp.Equal(base, got) {
				t.Errorf("%s on a Responses stream merges to %+v, %v", q.Name, got, err)
			}
			continue
		}
		if _, err := q.Apply(other, 1); !errors.Is(err, ErrNotApplicable) {
			t.Errorf("%s (for %s) on the other format: err = %v, want ErrNotApplicable", q.Name, q.API, err)
		}
	}
}

// TestResponsesQuirkShapes checks the shape each transform exists for.
func TestResponsesQuirkShapes(t *testing.T) {
	clean := cleanResponses()
	apply := func(name string) string {
		out, err := mustQuirk("responses_"+name).Apply(clean, 1)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	tests := []struct {
		quirk, reason string
		check         func(string) bool
	}{
		{"shared_output_index", "a reasoning item and a call both at output_index 1",
			func(s string) bool {
				return strings.Contains(s, `"output_index":1,"item":{"id":"rs_shared_0","type":"reasoning"`) &&
					strings.Contains(s, `"output_index":1,"item":{"id":"fc_quirks_1_0","type":"function_call"`)
			}},
		{"added_by_call_id", "the call announced under its call_id", func(s string) bool {
			return strings.Contains(s, `"item":{"id":"call_`) && strings.Contains(s, `"item_id":"fc_quirks_1_0"`)
		}},
		{"args_only_in_done", "no argument delta", func(s string) bool {
			return !strings.Contains(s, "arguments.delta") && strings.Count(s, "event: response.function_call_arguments.done") == 2
		}},
		{"args_only_in_item_done", "no argument event at all", func(s string) bool { return !strings.Contains(s, "function_call_arguments") }},
		{"never_announced", "nothing announced", func(s string) bool {
			return !strings.Contains(s, "output_item.added") && !strings.Contains(s, "content_part.added")
		}},
		{"ids_rotate", "no item id twice", func(s string) bool {
			return strings.Count(s, `"fc_quirks_1_0"`) == 0 && strings.Contains(s, `"item_id":"fc_quirks_1_0_r`)
		}},
		{"args_one_rune", "one rune per delta", func(s string) bool { return strings.Contains(s, `"delta":"笔"`) }},
		{"completed_empty", "an empty final output", func(s string) bool { return strings.Contains(s, `"status":"completed","model":"m","output":[]`) }},
		{"no_created", "no lifecycle start", func(s string) bool {
			return !strings.Contains(s, "response.created") && strings.HasPrefix(s, "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":0,")
		}},
		{"unknown_events", "unknown types", func(s string) bool {
			return strings.Contains(s, "event: response.vendor.keepalive") && strings.Contains(s, "event: response.rate_limits.updated")
		}},
		{"done_marker", "[DONE] last", func(s string) bool { return strings.HasSuffix(s, "data: [DONE]\n\n") }},
		{"args_done_differs", "re-spaced deltas", func(s string) bool { return strings.Contains(s, `"delta":"ern\": "`) }},
		{"sequence_swapped", "a sequence number that goes down", func(s string) bool {
			return strings.Index(s, `"type":"response.output_item.done","sequence_number":17,`) < strings.Index(s, `"type":"response.function_call_arguments.done","sequence_number":16,`)
		}},
		{"truncated", "no terminal event", func(s string) bool { return !strings.Contains(s, "response.completed") }},
	}
	for _, tt := range tests {
		if got := apply(tt.quirk); !tt.check(got) {
			t.Errorf("%s: %s: not so in\n%s", tt.quirk, tt.reason, got)
		}
	}
}
