package gemini

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

// conversation is a tool turn with a signed call, its results, and a final
// answer whose text part carried a signature.
func conversation() []agent.Message {
	signed := streamtest.Call("call_0", "read_file", `{"path":"src/calc.js"}`)
	signed.ExtraContent = WithSignature("c2ln+/==")
	return []agent.Message{
		{Role: agent.RoleSystem, Content: "You fix bugs."},
		{Role: agent.RoleUser, Content: "Why does <divide> fail?"},
		{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []agent.ToolCall{signed, streamtest.Call("call_1", "glob", `{"pattern":"test/**"}`)}},
		{Role: agent.RoleTool, ToolCallID: "call_0", Content: "1\tfunction divide(a, b) {"},
		{Role: agent.RoleTool, ToolCallID: "call_1", Content: "test/calc.test.js"},
		{Role: agent.RoleAssistant, Content: "b is never checked.", Thinking: []agent.Thinking{{Type: agent.ThinkingReasoning, Text: "r"}, {Type: agent.ThinkingRedacted, Data: "dGV4dA=="}}},
		{Role: agent.RoleUser, Content: "Thanks."},
	}
}

func TestBody(t *testing.T) {
	defs := []tools.Definition{{Type: "function", Function: tools.Function{Name: "glob", Description: "Find files.", Parameters: json.RawMessage(`{"type":"object"}`)}}}
	got, err := Body("gemini-2.5-flash", conversation(), defs)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"contents":[` +
		`{"role":"user","parts":[{"text":"Why does <divide> fail?"}]},` +
		`{"role":"model","parts":[{"text":"Looking."},{"functionCall":{"id":"call_0","name":"read_file","args":{"path":"src/calc.js"}},"thoughtSignature":"c2ln+/=="},{"functionCall":{"id":"call_1","name":"glob","args":{"pattern":"test/**"}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"call_0","name":"read_file","response":{"output":"1\tfunction divide(a, b) {"}}},{"functionResponse":{"id":"call_1","name":"glob","response":{"output":"test/calc.test.js"}}}]},` +
		`{"role":"model","parts":[{"text":"b is never checked.","thoughtSignature":"dGV4dA=="}]},` +
		`{"role":"user","parts":[{"text":"Thanks."}]}],` +
		`"systemInstruction":{"parts":[{"text":"You fix bugs."}]},` +
		`"tools":[{"functionDeclarations":[{"name":"glob","description":"Find files.","parametersJsonSchema":{"type":"object"}}]}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := Check(conversation()); err != nil {
		t.Errorf("Check: %v", err)
	}
}

// A server reads back what Body wrote: the same messages, but for what is
// never sent (reasoning) and the signature of a text part, which comes back
// as the same redacted block.
func TestDecodeReadsBody(t *testing.T) {
	body, err := Body("m", conversation(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	want := conversation()
	want[5].Thinking = want[5].Thinking[1:]
	if diff := cmp.Diff(agent.DecodedRequest{Messages: want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if model, turn := Turn(body); model != "" || turn != 3 {
		t.Errorf("Turn = %q, %d; want no model (it is in the path) and turn 3", model, turn)
	}
}

// A request as Gemini CLI sends it: calls without ids answered by
// responses with the client's own ids, a thought part, generationConfig.
func TestDecodeGeminiCLIRequest(t *testing.T) {
	body := `{"contents":[{"role":"user","parts":[{"text":"fix it"}]},` +
		`{"role":"model","parts":[{"text":"plan","thought":true},{"functionCall":{"name":"read_file","args":{"path":"a.js"}},"thoughtSignature":"U0lH"}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"read_file-1767225600-1","name":"read_file","response":{"output":"x"}}}]}],` +
		`"systemInstruction":{"role":"user","parts":[{"text":"sys"}]},"generationConfig":{"thinkingConfig":{"includeThoughts":true,"thinkingLevel":"LOW"}}}`
	got, err := Decode([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	call := streamtest.Call("call_0", "read_file", `{"path":"a.js"}`)
	call.ExtraContent = WithSignature("U0lH")
	want := []agent.Message{
		{Role: agent.RoleSystem, Content: "sys"},
		{Role: agent.RoleUser, Content: "fix it"},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{call}, Thinking: []agent.Thinking{{Type: agent.ThinkingReasoning, Text: "plan"}}},
		{Role: agent.RoleTool, ToolCallID: "call_0", Content: "x"},
	}
	if diff := cmp.Diff(want, got.Messages); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Every broken request is refused naming the content and the part, wrapping
// agent.ErrInvalidMessages.
func TestDecodeRefusesBrokenContents(t *testing.T) {
	call := func(name string) string { return `{"functionCall":{"name":"` + name + `","args":{}}}` }
	resp := func(name string) string {
		return `{"functionResponse":{"name":"` + name + `","response":{"output":""}}}`
	}
	user := `{"role":"user","parts":[{"text":"go"}]}`
	tests := []struct {
		reason, contents, want string
	}{
		{"a call with no response", user + `,{"role":"model","parts":[` + call("glob") + `]}`,
			`request content 1: functionCall "glob" has no functionResponse in the next content`},
		{"responses in the wrong order", user + `,{"role":"model","parts":[` + call("glob") + `,` + call("grep") + `]},{"role":"user","parts":[` + resp("grep") + `,` + resp("glob") + `]}`,
			`request content 2: part 0: functionResponse "grep" answers functionCall 0, which is "glob" (responses go in the calls' order)`},
		{"one response missing", user + `,{"role":"model","parts":[` + call("glob") + `,` + call("grep") + `]},{"role":"user","parts":[` + resp("glob") + `]}`,
			`request content 2: functionCall 1 ("grep") of content 1 has no functionResponse at part 1`},
		{"a response too many", user + `,{"role":"model","parts":[` + call("glob") + `]},{"role":"user","parts":[` + resp("glob") + `,` + resp("glob") + `]}`,
			`request content 2: part 1: functionResponse "glob" has no functionCall left to answer (1 calls)`},
		{"a response out of nowhere", `{"role":"user","parts":[` + resp("glob") + `]}`,
			`request content 0: part 0: functionResponse "glob" answers no functionCall of the content before it`},
		{"a call without a name", user + `,{"role":"model","parts":[{"functionCall":{"args":{}}}]}`,
			`request content 1: part 0: functionCall has an empty name`},
		{"a call in a user content", `{"role":"user","parts":[` + call("glob") + `]}`,
			`request content 0: part 0: functionCall "glob" in a "user" content`},
		{"ids that do not match", user + `,{"role":"model","parts":[{"functionCall":{"id":"a","name":"glob"}}]},{"role":"user","parts":[{"functionResponse":{"id":"b","name":"glob","response":{}}}]}`,
			`request content 2: part 0: functionResponse id "b" answers functionCall 0, whose id is "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			_, err := Decode([]byte(`{"contents":[` + tt.contents + `]}`))
			if !errors.Is(err, agent.ErrInvalidMessages) || err.Error() != "invalid messages: "+tt.want {
				t.Errorf("error = %v\nwant invalid messages: %s", err, tt.want)
			}
		})
	}
	if _, err := Decode([]byte(`{"contents":`)); err == nil || errors.Is(err, agent.ErrInvalidMessages) {
		t.Errorf("a body that is not JSON: %v, want a decoding error", err)
	}
}

// Check refuses what the neutral invariants refuse, before converting.
func TestCheckRefusesUnansweredCall(t *testing.T) {
	msgs := conversation()[:3]
	if err := Check(msgs); !errors.Is(err, agent.ErrInvalidMessages) {
		t.Errorf("Check = %v, want ErrInvalidMessages", err)
	}
}
