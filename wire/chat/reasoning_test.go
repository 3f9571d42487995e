package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestMergeStreamContentAndReasoning(t *testing.T) {
	tests := []struct {
		reason    string
		deltas    []string
		text      string
		reasoning string
		echo      string
	}{
		{"text parts are text", []string{`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`}, "ab", "", ""},
		{"a part as an object", []string{`{"content":{"type":"text","text":"a"}}`}, "a", "", ""},
		{"thinking with nested text parts (Mistral)", []string{`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t1"},{"type":"text","text":"t2"}],"closed":true},{"type":"text","text":"x"}]}`}, "x", "t1t2", ""},
		{"thinking as a string", []string{`{"content":[{"type":"thinking","thinking":"t"}]}`}, "", "t", ""},
		{"reasoning summary parts (Databricks)", []string{`{"content":[{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}]}]}`}, "", "s", ""},
		{"parts without text", []string{`{"content":[{},{"type":"text"},{"type":"image_url","image_url":{"url":"u"}},{"type":"redacted_thinking","data":"d"},1,null,true]}`}, "", "", ""},
		{"an empty array", []string{`{"content":[]}`}, "", "", ""},
		{"escapes in parts", []string{`{"content":[{"type":"text","text":"\u4e2d\"\n"}]}`}, "中\"\n", "", ""},
		{"reasoning_content is echoed", []string{`{"reasoning_content":"r1"}`, `{"reasoning_content":"r2","content":"x"}`}, "x", "r1r2", "r1r2"},
		{"reasoning_content as an object (Bedrock via envoy)", []string{`{"reasoning_content":{"text":"r"}}`}, "", "r", "r"},
		{"reasoning (OpenRouter, Ollama) is not echoed", []string{`{"reasoning":"r"}`}, "", "r", ""},
		{"reasoning mirrored in reasoning_details is kept once", []string{`{"reasoning":"r","reasoning_details":[{"type":"reasoning.text","text":"r"}]}`}, "", "r", ""},
		{"reasoning_details alone", []string{`{"reasoning_details":[{"type":"reasoning.summary","summary":"s"},{"type":"reasoning.text","text":"t"},{"type":"reasoning.encrypted","data":"e"}]}`}, "", "st", ""},
		{"empty reasoning_content falls through to reasoning", []string{`{"reasoning_content":"","reasoning":"r"}`}, "", "r", ""},
		{"reasoning of odd types adds nothing", []string{`{"reasoning_content":5,"reasoning":true,"reasoning_details":{"type":"reasoning.encrypted"}}`}, "", "", ""},
		{"refusal is text", []string{`{"content":null,"refusal":"no"}`, `{"refusal":" thanks"}`}, "no thanks", "", ""},
		{"a refusal that is not a string adds nothing", []string{`{"refusal":{"x":1}}`}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var b strings.Builder
			for _, d := range tt.deltas {
				fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", d)
			}
			b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
			for _, jsonOnly := range []bool{false, true} {
				turn, err := merge(strings.NewReader(b.String()), jsonOnly)
				if err != nil {
					t.Fatal(err)
				}
				echo := agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c", "glob", "{}")}, Thinking: turn.Thinking}.ReasoningContent()
				got := []string{turn.Text, turn.ReasoningText(), echo}
				if diff := cmp.Diff([]string{tt.text, tt.reasoning, tt.echo}, got); diff != "" {
					t.Errorf("jsonOnly=%v: text, reasoning, reasoning_content (-want +got):\n%s", jsonOnly, diff)
				}
			}
		})
	}
}

// FuzzContentParts: whatever JSON array delta.content holds, the stream
// merges without error, the scanner and encoding/json agree, and sending the
// parts one per delta gives the same text and reasoning as sending them in
// one delta.
func FuzzContentParts(f *testing.F) {
	f.Add(`[{"type":"thinking","thinking":[{"type":"text","text":"a"}],"closed":true},{"type":"text","text":"b"}]`)
	f.Add(`[{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}]},{"type":"text","text":"\u4e2d"}]`)
	f.Add(`[{},"x",1,null,[{"type":"text","text":"n"}],{"type":"image_url","image_url":{"url":"u"}}]`)
	f.Add(`[{"type":"text","text":"\ud800"},{"type":"thinking","thinking":{"text":"t","content":"c"}}]`)
	f.Fuzz(func(t *testing.T, parts string) {
		var items []json.RawMessage
		var compact bytes.Buffer // one data line: no CR or LF between tokens
		if json.Unmarshal([]byte(parts), &items) != nil || json.Compact(&compact, []byte(parts)) != nil {
			return
		}
		parts = compact.String()
		for i, it := range items {
			compact.Reset()
			json.Compact(&compact, it)
			items[i] = bytes.Clone(compact.Bytes())
		}
		whole := "data: {\"choices\":[{\"delta\":{\"content\":" + parts + "}}]}\n\n"
		var split strings.Builder
		for _, it := range items {
			split.WriteString("data: {\"choices\":[{\"delta\":{\"content\":[" + string(it) + "]}}]}\n\n")
		}
		end := "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
		want, err := merge(strings.NewReader(whole+end), true)
		if err != nil {
			t.Fatalf("content %s: %v", parts, err)
		}
		for _, c := range []struct {
			stream   string
			jsonOnly bool
		}{{whole + end, false}, {split.String() + end, false}, {split.String() + end, true}} {
			got, err := merge(strings.NewReader(c.stream), c.jsonOnly)
			if err != nil {
				t.Fatalf("content %s: %v", parts, err)
			}
			if diff := cmp.Diff([]string{want.Text, want.ReasoningText()}, []string{got.Text, got.ReasoningText()}); diff != "" {
				t.Errorf("content %s (jsonOnly=%v):\n%s", parts, c.jsonOnly, diff)
			}
		}
	})
}
