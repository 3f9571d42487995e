package messages

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

func TestMessagesRequestBody(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys <&>"},
		{Role: agent.RoleUser, Content: "why red?"},
		{Role: agent.RoleAssistant, Content: "Looking.", Thinking: []agent.Thinking{
			{Type: agent.ThinkingText, Text: "think", Signature: "sig"},
			{Type: agent.ThinkingRedacted, Data: "opaque"},
		}, ToolCalls: []agent.ToolCall{streamtest.Call("toolu_1", "echo", "{ \"text\": \"x\" }"), streamtest.Call("toolu_2", "echo", `{"text":`)}},
		{Role: agent.RoleTool, ToolCallID: "toolu_1", Content: "x"},
		{Role: agent.RoleTool, ToolCallID: "toolu_2", Content: "bad json"},
		{Role: agent.RoleUser, Content: "and?"},
	}
	want := `{"model":"m","max_tokens":8192,"system":"sys \u003c\u0026\u003e","messages":[` +
		`{"role":"user","content":[{"type":"text","text":"why red?"}]},` +
		`{"role":"assistant","content":[{"type":"thinking","thinking":"think","signature":"sig"},{"type":"redacted_thinking","data":"opaque"},` +
		`{"type":"text","text":"Looking."},{"type":"tool_use","id":"toolu_1","name":"echo","input":{"text":"x"}},{"type":"tool_use","id":"toolu_2","name":"echo","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"},{"type":"tool_result","tool_use_id":"toolu_2","content":"bad json"},{"type":"text","text":"and?"}]}],` +
		`"tools":[{"name":"echo","description":"Echo the text.","input_schema":{"type":"object","properties":{"text":{"type":"string"}}}}],"stream":true}`
	for i := 0; i < 3; i++ {
		got, err := Body("m", msgs, streamtest.Defs)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Fatalf("body (-want +got):\n%s", diff)
		}
	}
	got, _ := Body("m", nil, nil)
	if diff := cmp.Diff(`{"model":"m","max_tokens":8192,"messages":[],"stream":true}`, string(got)); diff != "" {
		t.Errorf("empty body (-want +got):\n%s", diff)
	}
}

// The body converts back to the same neutral messages (what the scripted
// gateway and conform read), thinking and calls included.
func TestDecodeMessagesRequestRoundTrip(t *testing.T) {
	msgs := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys"},
		{Role: agent.RoleUser, Content: "why red?"},
		{Role: agent.RoleAssistant, Content: "Looking.", Thinking: []agent.Thinking{{Type: agent.ThinkingText, Text: "think", Signature: "sig"}},
			ToolCalls: []agent.ToolCall{streamtest.Call("toolu_1", "echo", `{"text":"x"}`)}},
		{Role: agent.RoleTool, ToolCallID: "toolu_1", Content: "x"},
		{Role: agent.RoleAssistant, Content: "Done."},
	}
	body, err := Body("m", msgs, streamtest.Defs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(agent.DecodedRequest{Model: "m", Stream: true, Messages: msgs}, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

func TestDecodeMessagesRequestStringContent(t *testing.T) {
	body := `{"model":"m","system":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"messages":[{"role":"user","content":"hi"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"glob","input":{"pattern":"*"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"main.js"}]}]}],"stream":false}`
	got, err := Decode([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := agent.DecodedRequest{Model: "m", Messages: []agent.Message{
		{Role: agent.RoleSystem, Content: "a\n\nb"},
		{Role: agent.RoleUser, Content: "hi"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("t1", "glob", `{"pattern":"*"}`)}},
		{Role: agent.RoleTool, ToolCallID: "t1", Content: "main.js"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

// The invariant the Messages API enforces with a 400 (anomalyco/opencode
// #5750): each request below breaks it once, and the error says where.
func TestDecodeMessagesRequestInvariant(t *testing.T) {
	user := `{"role":"user","content":"hi"}`
	use := func(blocks string) string { return `{"role":"assistant","content":[` + blocks + `]}` }
	res := func(blocks string) string { return `{"role":"user","content":[` + blocks + `]}` }
	tu := func(id string) string { return `{"type":"tool_use","id":"` + id + `","name":"glob","input":{}}` }
	tr := func(id string) string { return `{"type":"tool_result","tool_use_id":"` + id + `","content":"x"}` }
	text := `{"type":"text","text":"t"}`
	tests := []struct {
		reason string
		msgs   []string
		want   string
	}{
		{"text after a tool_use", []string{user, use(tu("a") + "," + text), res(tr("a"))},
			"request message 1: block 1: text block after tool_use \"a\" (nothing may follow a tool_use)"},
		{"thinking after a tool_use", []string{user, use(tu("a") + `,{"type":"thinking","thinking":"x","signature":"s"}`), res(tr("a"))},
			"request message 1: block 1: thinking block after tool_use \"a\" (nothing may follow a tool_use)"},
		{"the stream was cut: no result at all", []string{user, use(tu("a")), user},
			"request message 2: tool_use \"a\" of message 1 has no tool_result before the first other block"},
		{"the assistant message is last", []string{user, use(tu("a"))},
			"request message 1: tool_use \"a\" has no tool_result in the next message"},
		{"text before the result", []string{user, use(tu("a")), res(text + "," + tr("a"))},
			"request message 2: tool_use \"a\" of message 1 has no tool_result before the first other block"},
		{"one of two calls answered", []string{user, use(tu("a") + "," + tu("b")), res(tr("a"))},
			"request message 2: tool_use \"b\" of message 1 has no tool_result before the first other block"},
		{"a result for no call", []string{user, use(tu("a")), res(tr("a") + "," + tr("z"))},
			"request message 2: block 1: tool_result \"z\" answers no tool_use of message 1"},
		{"a second result", []string{user, use(tu("a")), res(tr("a") + "," + tr("a"))},
			"request message 2: block 1: tool_use \"a\" has a second tool_result"},
		{"a result after text", []string{user, use(tu("a")), res(tr("a") + "," + text + "," + tr("a"))},
			"request message 2: block 2: tool_result \"a\" comes after a text block"},
		{"a result with no call before it", []string{res(tr("a"))},
			"request message 0: block 0: tool_result \"a\" answers no tool_use of the message before it"},
		{"a tool_use with no id", []string{user, use(tu("")), res(tr(""))},
			"request message 1: block 0: tool_use \"glob\" has an empty id"},
		{"a tool_use id twice", []string{user, use(tu("a") + "," + tu("a")), res(tr("a"))},
			"request message 1: block 1: tool_use id \"a\" appears twice"},
	}
	for _, tt := range tests {
		body := `{"model":"m","messages":[` + strings.Join(tt.msgs, ",") + `],"stream":true}`
		_, err := Decode([]byte(body))
		if !errors.Is(err, agent.ErrInvalidMessages) || err.Error() != "invalid messages: "+tt.want {
			t.Errorf("%s: error = %v, want invalid messages: %s", tt.reason, err, tt.want)
		}
	}
	if _, err := Decode([]byte(`{"model":"m","messages":[{"role":"user","content":7}]}`)); fmt.Sprint(err) !=
		"message 0: content is neither a string nor blocks: json: cannot unmarshal number into Go value of type []messages.wireBlock" {
		t.Errorf("content 7: error = %v", err)
	}
}

// The loop's check for this format: the neutral invariants, then the
// converted request's.
func TestCheckAnthropicMessages(t *testing.T) {
	asked := agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{streamtest.Call("a", "glob", "{}")}}
	tests := []struct {
		reason string
		msgs   []agent.Message
		want   string
	}{
		{"valid: call, result, answer", []agent.Message{{Role: agent.RoleUser, Content: "hi"}, asked, {Role: agent.RoleTool, ToolCallID: "a", Content: "x"}}, "<nil>"},
		{"a call without result", []agent.Message{{Role: agent.RoleUser, Content: "hi"}, asked},
			`invalid messages: message 1: tool call "a" has no result`},
		{"a result without call", []agent.Message{{Role: agent.RoleUser, Content: "hi"}, {Role: agent.RoleTool, ToolCallID: "a"}},
			`invalid messages: message 1: tool result "a" does not answer a call of the assistant message before it`},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(Check(tt.msgs)); got != tt.want {
			t.Errorf("%s: Check = %s, want %s", tt.reason, got, tt.want)
		}
	}
}

func TestMessagesClientRequest(t *testing.T) {
	stream := `event: message_start
data: {"type":"message_start","message":{"id":"msg_1"}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}

event: message_stop
data: {"type":"message_stop"}

`
	var got struct {
		Path   string
		Header http.Header
		Body   string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got.Path, got.Header, got.Body = r.URL.Path, r.Header.Clone(), string(body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, stream)
	}))
	defer srv.Close()
	c := &agent.Client{BaseURL: srv.URL + "/", APIKey: "sk-ant-1", Model: "claude", HTTPClient: srv.Client(), Format: Format}
	turn, err := c.Complete(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "hi"}}, streamtest.Defs)
	if err != nil {
		t.Fatal(err)
	}
	if turn.Text != "hi" || turn.FinishReason != "end_turn" {
		t.Errorf("turn = %+v", turn)
	}
	want, _ := Body("claude", []agent.Message{{Role: agent.RoleUser, Content: "hi"}}, streamtest.Defs)
	for _, check := range []struct{ what, got, want string }{
		{"path", got.Path, "/v1/messages"},
		{"x-api-key", got.Header.Get("x-api-key"), "sk-ant-1"},
		{"anthropic-version", got.Header.Get("anthropic-version"), "2023-06-01"},
		{"Authorization", got.Header.Get("Authorization"), ""},
		{"Accept", got.Header.Get("Accept"), "text/event-stream"},
		{"body", got.Body, string(want)},
	} {
		if check.got != check.want {
			t.Errorf("%s = %q, want %q", check.what, check.got, check.want)
		}
	}
	if c.Endpoint() != srv.URL+"/v1/messages" {
		t.Errorf("Endpoint() = %s", c.Endpoint())
	}
}
