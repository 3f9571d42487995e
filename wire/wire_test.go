package wire_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/chat"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
	"github.com/agentvcr/agentvcr/wire/responses"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestByName(t *testing.T) {
	tests := []struct {
		reason  string
		name    string
		want    *agent.Format
		wantErr string
	}{
		{"chat completions by its name", "chat", chat.Format, ""},
		{"Gemini by its name", "gemini", gemini.Format, ""},
		{"unknown name lists the known ones", "vertex", nil, `unknown api "vertex" (want ` + apiNames() + `)`},
	}
	for _, tt := range tests {
		got, err := wire.ByName(tt.name)
		if got != tt.want || fmt.Sprint(err) != fmt.Sprint(errOrNil(tt.wantErr)) {
			t.Errorf("%s: wire.ByName(%q) = %v, %v; want %v, %s", tt.reason, tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func apiNames() string {
	var names []string
	for _, a := range wire.All() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

func TestDetect(t *testing.T) {
	tests := []struct {
		reason string
		head   string
		want   *agent.Format
	}{
		{"a chat chunk", `data: {"id":"c","object":"chat.completion.chunk","choices":[]}` + "\n\n", chat.Format},
		{"an event: line of Messages", "event: message_start\ndata: {}\n\n", messages.Format},
		{"Messages data without event: lines", `data: {"type":"message_start","message":{"id":"m"}}` + "\n\n", messages.Format},
		{"a ping first (Messages)", ": comment\r\nevent: ping\r\ndata: {\"type\":\"ping\"}\r\n\r\n", messages.Format},
		{"a content block before message_start", `data: {"type":"content_block_start","index":0}` + "\n\n", messages.Format},
		{"Responses", "event: response.created\ndata: {\"type\":\"response.created\"}\n\n", responses.Format},
		{"a Responses type without an event line", `data: {"type":"response.output_text.delta","delta":"x"}`, responses.Format},
		{"a Responses type after another member", `data: {"sequence_number":0, "type": "response.created"}`, responses.Format},
		{"a chat chunk whose text looks like a type", `data: {"choices":[{"delta":{"content":"response."}}]}`, chat.Format},
		{"a Responses type without an event line", `data: {"type":"response.output_text.delta","delta":"x"}`, responses.Format},
		{"a Responses type after another member", `data: {"sequence_number":0, "type": "response.created"}`, responses.Format},
		{"a chat chunk whose text looks like a type", `data: {"choices":[{"delta":{"content":"response."}}]}`, chat.Format},
		{"an error first, then Messages", "event: error\ndata: {\"type\":\"error\"}\n\nevent: message_start\n", messages.Format},
		{"an error object alone", `data: {"type":"error","error":{"message":"x"}}` + "\n\n", chat.Format},
		{"[DONE] then nothing", "data: [DONE]\n\n", chat.Format},
		{"a Gemini response", `data: {"candidates": [{"content": {"parts": [{"text": "x"}],"role": "model"},"index": 0}]}` + "\r\n\r\n", gemini.Format},
		{"a Gemini usage-only event", `data: {"usageMetadata":{"promptTokenCount":1}}`, gemini.Format},
		{"a Gemini prompt block", `data: {"promptFeedback":{"blockReason":"SAFETY"}}`, gemini.Format},
		{"a Google error object alone stays the default's", `data: {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`, chat.Format},
		{"a chat chunk that also names a modelVersion", `data: {"choices":[],"modelVersion":"m"}`, chat.Format},
		{"empty", "", chat.Format},
	}
	for _, tt := range tests {
		if got := wire.Detect([]byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect = %s, want %s", tt.reason, got.Name, tt.want.Name)
		}
	}
}

// Every format is found by its name and its path, and every fixture of a
// format's package is detected as that format and says what it reproduces
// on its first line: one test walks the list, so a new format is checked by
// being registered.
func TestEveryFormatIsFoundAndDetected(t *testing.T) {
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			if got, err := wire.ByName(f.Name); got != f || err != nil {
				t.Errorf("ByName(%q) = %v, %v", f.Name, got, err)
			}
			for _, path := range []string{f.Path("m"), "/v1" + f.Path("m"), "/s/clean~index_from_1/v1" + f.Path("m"), f.BasePath + f.Path("m")} {
				if got := wire.ForPath(path); got != f {
					t.Errorf("ForPath(%q) = %v, want %s", path, got, f.Name)
				}
			}
			if f.Carries != nil && f.Framing == nil {
				return // its streams are the carried format's: their fixtures are that format's
			}
			for _, path := range streamtest.FormatFixtures(t, ".", f) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got := wire.Detect(data); got != f {
					t.Errorf("%s: detected as %s", path, got.Name)
				}
				if f.Framing != nil {
					continue // a framed fixture has no comment: its generator says what it is
				}
				if reason := streamtest.Reason(t, path); len(reason) < 20 {
					t.Errorf("%s: the first comment %q is too short to say what it reproduces", path, reason)
				}
			}
		})
	}
	if got := wire.ForPath("/v1/models"); got != nil {
		t.Errorf("ForPath(/v1/models) = %s, want none", got.Name)
	}
}

// Every format merges what it writes back into the same turn: the same
// text, the same calls with the same ids, names and arguments (with quotes,
// backslashes, CJK and an emoji split across pieces), and writing is stable.
func TestEveryFormatMergesWhatItWrites(t *testing.T) {
	turns := []struct {
		reason string
		turn   agent.Turn
	}{
		{"text only", agent.Turn{Text: "测试红了：divide 没有检查除数 \"0\" \\ 😀"}},
		{"text and two calls with ids", agent.Turn{Text: "Let me look.", ToolCalls: []agent.ToolCall{
			streamtest.Call("call_a1", "grep", `{"pattern":"say \"hi\" \\ 中文","glob":"src/**"}`),
			streamtest.Call("call_b2", "read_file", `{"path":"😀/目录/a.js"}`),
		}}},
		{"calls without ids get the format's", agent.Turn{ToolCalls: []agent.ToolCall{
			streamtest.Call("", "glob", `{"pattern":"**/*.js"}`),
			streamtest.Call("", "glob", `{}`),
		}}},
	}
	for _, f := range wire.All() {
		for _, tt := range turns {
			t.Run(f.Name+"/"+tt.reason, func(t *testing.T) {
				events := f.Write("m", "conv", 2, &tt.turn)
				again := f.Write("m", "conv", 2, &tt.turn)
				if diff := cmp.Diff(events, again); diff != "" {
					t.Errorf("writing twice differs:\n%s", diff)
				}
				got, err := f.Merge(strings.NewReader(strings.Join(events, "")))
				if err != nil {
					t.Fatalf("merge: %v", err)
				}
				want := tt.turn
				want.ToolCalls = slices.Clone(want.ToolCalls)
				seen := map[string]bool{}
				for i := range want.ToolCalls {
					if want.ToolCalls[i].ID == "" && i < len(got.ToolCalls) {
						want.ToolCalls[i].ID = got.ToolCalls[i].ID
					}
					if id := want.ToolCalls[i].ID; id == "" || seen[id] {
						t.Errorf("call %d: id %q is empty or repeated", i, id)
					}
					seen[want.ToolCalls[i].ID] = true
				}
				if diff := cmp.Diff(want.Text, got.Text); diff != "" {
					t.Errorf("text (-wrote +merged):\n%s", diff)
				}
				if diff := cmp.Diff(want.ToolCalls, got.ToolCalls, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("calls (-wrote +merged):\n%s", diff)
				}
				if got.ToolTurn != (len(want.ToolCalls) > 0) || got.FinishReason == "" {
					t.Errorf("tool turn %v, finish %q; want a tool turn iff calls, and a finish", got.ToolTurn, got.FinishReason)
				}
			})
		}
	}
}
