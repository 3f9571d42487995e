package wire_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/google/go-cmp/cmp"
)

// asRequest puts a non-streamed answer of each format into a request body
// of that format, after a user message and before its calls' results, as a
// client that received it sends it back: the format's own Decode then
// reads the turn out of it. A format
// added to wire.All needs its entry here.
var asRequest = map[string]func(answer []byte) ([]byte, error){
	"chat": func(answer []byte) ([]byte, error) {
		var c struct {
			Choices []struct {
				Message json.RawMessage `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(answer, &c); err != nil || len(c.Choices) != 1 {
			return nil, fmt.Errorf("want one choice: %v", err)
		}
		var m struct {
			ToolCalls []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		}
		json.Unmarshal(c.Choices[0].Message, &m) // a message, or no results
		msgs := []string{`{"role":"user","content":"go"}`, string(c.Choices[0].Message)}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":"ok"}`, tc.ID))
		}
		return fmt.Appendf(nil, `{"model":"m","messages":[%s]}`, strings.Join(msgs, ",")), nil
	},
	"messages": messagesAsRequest,
	"bedrock": func(answer []byte) ([]byte, error) {
		body, err := messagesAsRequest(answer)
		if err != nil {
			return nil, err
		}
		return bytes.Replace(body, []byte(`{"model":"m",`), []byte(`{"anthropic_version":"bedrock-2023-05-31",`), 1), nil
	},
	"converse": func(answer []byte) ([]byte, error) {
		var r struct {
			Output struct {
				Message struct {
					Content []map[string]json.RawMessage `json:"content"`
				} `json:"message"`
			} `json:"output"`
		}
		if err := json.Unmarshal(answer, &r); err != nil {
			return nil, err
		}
		content, _ := json.Marshal(r.Output.Message.Content)
		var results []string
		for _, b := range r.Output.Message.Content {
			var u struct {
				ToolUseID string `json:"toolUseId"`
			}
			if json.Unmarshal(b["toolUse"], &u) == nil && u.ToolUseID != "" {
				results = append(results, fmt.Sprintf(`{"toolResult":{"toolUseId":%q,"content":[{"text":"ok"}]}}`, u.ToolUseID))
			}
		}
		return fmt.Appendf(nil, `{"messages":[{"role":"user","content":[{"text":"go"}]},{"role":"assistant","content":%s},{"role":"user","content":[%s]}]}`,
			content, strings.Join(results, ",")), nil
	},
	"vertex-anthropic": func(answer []byte) ([]byte, error) {
		body, err := messagesAsRequest(answer)
		if err != nil {
			return nil, err
		}
		return bytes.Replace(body, []byte(`{"model":"m",`), []byte(`{"anthropic_version":"vertex-2023-10-16",`), 1), nil
	},
	"responses": func(answer []byte) ([]byte, error) {
		var r struct {
			Status string            `json:"status"`
			Output []json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(answer, &r); err != nil || r.Status != "completed" {
			return nil, fmt.Errorf("want a completed response: %v", err)
		}
		input := append([]json.RawMessage{json.RawMessage(`{"role":"user","content":"go"}`)}, r.Output...)
		for _, item := range r.Output {
			var fc struct {
				Type   string `json:"type"`
				CallID string `json:"call_id"`
			}
			if json.Unmarshal(item, &fc) == nil && fc.Type == "function_call" {
				input = append(input, fmt.Appendf(nil, `{"type":"function_call_output","call_id":%q,"output":"ok"}`, fc.CallID))
			}
		}
		items, _ := json.Marshal(input) // raw JSON that unmarshalled marshals
		return fmt.Appendf(nil, `{"model":"m","input":%s}`, items), nil
	},
	"gemini": func(answer []byte) ([]byte, error) {
		var r struct {
			Candidates []struct {
				Content json.RawMessage `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(answer, &r); err != nil || len(r.Candidates) != 1 {
			return nil, fmt.Errorf("want one candidate: %v", err)
		}
		var c struct {
			Parts []struct {
				FunctionCall *struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"functionCall"`
			} `json:"parts"`
		}
		json.Unmarshal(r.Candidates[0].Content, &c) // a content, or no results
		var results []string
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				results = append(results, fmt.Sprintf(`{"functionResponse":{"id":%q,"name":%q,"response":{"output":"ok"}}}`, p.FunctionCall.ID, p.FunctionCall.Name))
			}
		}
		contents := []string{`{"role":"user","parts":[{"text":"go"}]}`, string(r.Candidates[0].Content)}
		if len(results) > 0 {
			contents = append(contents, `{"role":"user","parts":[`+strings.Join(results, ",")+`]}`)
		}
		return fmt.Appendf(nil, `{"contents":[%s]}`, strings.Join(contents, ",")), nil
	},
}

// messagesAsRequest is a Messages answer sent back in a request.
func messagesAsRequest(answer []byte) ([]byte, error) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(answer, &m); err != nil || m.Role != "assistant" {
		return nil, fmt.Errorf("want an assistant message: %v", err)
	}
	var blocks []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	json.Unmarshal(m.Content, &blocks) // a block list, or no results
	results := []string{}
	for _, b := range blocks {
		if b.Type == "tool_use" {
			results = append(results, fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":"ok"}`, b.ID))
		}
	}
	return fmt.Appendf(nil, `{"model":"m","messages":[{"role":"user","content":"go"},{"role":"assistant","content":%s},{"role":"user","content":[%s]}]}`,
		m.Content, strings.Join(results, ",")), nil
}

// TestResponseGivesTheTurnBack: every format's non-streamed answer, sent
// back in a request of the format, reads (Decode) into the turn it was
// written from: the text, the calls with their names, arguments and the
// ids Write gives them.
func TestResponseGivesTheTurnBack(t *testing.T) {
	turn := &agent.Turn{Text: "Let me look: \"two\" \\ 中文.", ToolCalls: []agent.ToolCall{
		{Type: "function", Function: agent.FunctionCall{Name: "read_file", Arguments: `{"path":"a \"b\" \\ 数据"}`}},
		{Type: "function", Function: agent.FunctionCall{Name: "glob", Arguments: `{"pattern":"**/*.go"}`}},
	}}
	for _, f := range wire.All() {
		t.Run(f.Name, func(t *testing.T) {
			wrap, ok := asRequest[f.Name]
			if !ok {
				t.Fatalf("format %s has no entry in asRequest", f.Name)
			}
			answer := f.Response("m", "conv", 0, turn)
			if !json.Valid(answer) {
				t.Fatalf("Response is not JSON: %s", answer)
			}
			body, err := wrap(answer)
			if err != nil {
				t.Fatalf("%v in %s", err, answer)
			}
			req, err := f.Decode(body)
			if err != nil {
				t.Fatalf("Decode: %v\n%s", err, body)
			}
			var got agent.Message
			for _, m := range req.Messages {
				if m.Role == agent.RoleAssistant {
					got = m
				}
			}
			streamed, err := f.Merge(strings.NewReader(strings.Join(f.Write("m", "conv", 0, turn), "")))
			if err != nil {
				t.Fatal(err)
			}
			want := agent.Message{Role: agent.RoleAssistant, Content: turn.Text, ToolCalls: streamed.ToolCalls}
			opt := cmp.Transformer("calls", func(c agent.ToolCall) [3]string { return [3]string{c.ID, c.Function.Name, c.Function.Arguments} })
			if d := cmp.Diff([]any{want.Role, want.Content, want.ToolCalls}, []any{got.Role, got.Content, got.ToolCalls}, opt); d != "" {
				t.Errorf("the turn read back from %s (-want +got):\n%s", answer, d)
			}
		})
	}
}
