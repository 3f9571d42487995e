package agent_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestMessageJSON(t *testing.T) {
	tests := []struct {
		reason string
		msg    agent.Message
		want   string
	}{
		{"user message", agent.Message{Role: agent.RoleUser, Content: "hi"}, `{"role":"user","content":"hi"}`},
		{"empty content stays a string", agent.Message{Role: agent.RoleAssistant}, `{"role":"assistant","content":""}`},
		{"calls and no text: content null", agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "glob", `{"pattern":"*"}`)}},
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]}`},
		{"calls and text", agent.Message{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []agent.ToolCall{streamtest.Call("c1", "glob", "{}")}},
			`{"role":"assistant","content":"Looking.","tool_calls":[{"id":"c1","type":"function","function":{"name":"glob","arguments":"{}"}}]}`},
		{"tool result", agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "中文\n"}, `{"role":"tool","content":"中文\n","tool_call_id":"c1"}`},
		{"reasoning_content after content, extra_content last in its call", agent.Message{Role: agent.RoleAssistant, Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "想一想\n"}}, ToolCalls: []agent.ToolCall{
			{ID: "c1", Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: "{}"}, ExtraContent: json.RawMessage(`{"google":{"thought_signature":"c2ln+/=="}}`)}}},
			`{"role":"assistant","content":null,"reasoning_content":"想一想\n","tool_calls":[{"id":"c1","type":"function","function":{"name":"glob","arguments":"{}"},"extra_content":{"google":{"thought_signature":"c2ln+/=="}}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := json.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			var back agent.Message
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.msg, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// Reasoning that is not echoed: a final answer's, and blocks that are only
// shown (reasoning, reasoning_details, thinking parts), or redacted ones.
func TestMessageJSONLeavesReasoningOut(t *testing.T) {
	tests := []struct {
		reason string
		msg    agent.Message
		want   string
	}{
		{"a final answer's reasoning", agent.Message{Role: agent.RoleAssistant, Content: "done", Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "r"}}},
			`{"role":"assistant","content":"done"}`},
		{"shown-only and redacted blocks", agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("c1", "glob", "{}")},
			Thinking: []agent.Thinking{{Type: agent.ThinkingReasoning, Text: "r"}, {Type: agent.ThinkingRedacted, Data: "d"}, {Type: agent.ThinkingText, Text: "t1"}, {Type: agent.ThinkingText, Text: "t2"}}},
			`{"role":"assistant","content":null,"reasoning_content":"t1t2","tool_calls":[{"id":"c1","type":"function","function":{"name":"glob","arguments":"{}"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := json.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckMessages(t *testing.T) {
	asst := func(ids ...string) agent.Message {
		m := agent.Message{Role: agent.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, streamtest.Call(id, "glob", "{}"))
		}
		return m
	}
	res := func(id string) agent.Message {
		return agent.Message{Role: agent.RoleTool, ToolCallID: id, Content: "ok"}
	}
	user := agent.Message{Role: agent.RoleUser, Content: "q"}
	tests := []struct {
		reason string
		msgs   []agent.Message
		want   string // "" means valid
	}{
		{"no messages", nil, ""},
		{"calls answered in any order", []agent.Message{user, asst("a", "b"), res("b"), res("a"), asst()}, ""},
		{"two tool turns", []agent.Message{user, asst("a"), res("a"), asst("a"), res("a")}, ""},
		{"a call without a result", []agent.Message{user, asst("a", "b"), res("a")}, `invalid messages: message 1: tool call "b" has no result`},
		{"a call answered twice", []agent.Message{user, asst("a"), res("a"), res("a")}, `invalid messages: message 3: tool call "a" has a second result`},
		{"a result for an unknown call", []agent.Message{user, asst("a"), res("a"), res("z")}, `invalid messages: message 3: tool result "z" points at no call of message 1`},
		{"a result with no assistant call before it", []agent.Message{user, res("a")}, `invalid messages: message 1: tool result "a" does not answer a call of the assistant message before it`},
		{"a result after another message", []agent.Message{user, asst("a"), user, res("a")}, `invalid messages: message 1: tool call "a" has no result`},
		{"an empty call id", []agent.Message{user, asst(""), res("")}, `invalid messages: message 1: tool call "glob" has an empty id`},
		{"a duplicate call id in one message", []agent.Message{user, asst("a", "a"), res("a")}, `invalid messages: message 1: tool call id "a" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			err := agent.CheckMessages(tt.msgs)
			got := ""
			if err != nil {
				got = err.Error()
				if !errors.Is(err, agent.ErrInvalidMessages) {
					t.Errorf("error does not wrap ErrInvalidMessages")
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSystemPrompt(t *testing.T) {
	if agent.SystemPrompt("") != agent.SystemPromptZH || agent.SystemPrompt("zh") != agent.SystemPromptZH || agent.SystemPrompt("en") != agent.SystemPromptEN {
		t.Error("SystemPrompt: zh is the default, en picks English")
	}
}
