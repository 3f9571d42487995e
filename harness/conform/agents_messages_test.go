package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// The purpose-built Messages agents: they post to ANTHROPIC_BASE_URL +
// /v1/messages, offer read_file, grep and write_file as Messages tools,
// send the turn's thinking blocks back first (the positional one keeps
// none) and answer each tool_use with a tool_result in the next user
// message.
const (
	msgAgentGood       = "messages_good"       // merges with messages.Merge; waits out a 429
	msgAgentTextFirst  = "messages_textfirst"  // puts a text block before the tool_result blocks
	msgAgentPositional = "messages_positional" // keeps blocks in a slice in arrival order, addressed by the stream's index
	msgAgentStringArgs = "messages_stringargs" // re-sends each tool_use input as a JSON string
	msgAgentTextLast   = "messages_textlast"   // re-sends the turn's text block after its tool_use blocks
)

var testMessagesTools = json.RawMessage(`[
 {"name":"write_file","input_schema":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}},
 {"name":"read_file","input_schema":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["path"]}},
 {"name":"grep","input_schema":{"type":"object","properties":{"pattern":{"type":"string"},"glob":{"type":"string"}},"required":["pattern"]}}
]`)

func testMessagesAgent(r *agentRun, mode string) int {
	client := r.client()
	url := strings.TrimRight(r.getenv("ANTHROPIC_BASE_URL"), "/") + "/v1/messages"
	msgs := []any{map[string]any{"role": "user", "content": "look around"}}
	for range 4 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "max_tokens": 1024, "system": "You are a test agent.",
			"messages": msgs, "tools": testMessagesTools, "stream": true})
		post := func() (*http.Response, error) {
			req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			req.Header.Set("x-api-key", r.getenv("ANTHROPIC_API_KEY"))
			req.Header.Set("anthropic-version", "2023-06-01")
			req.Header.Set("content-type", "application/json")
			return client.Do(req)
		}
		resp, ok := r.postStream(post, r.sleep)
		if !ok {
			return 1
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			fmt.Fprintln(r.stderr, "test agent: not a stream: Content-Type", ct) // as Anthropic's SDKs refuse it
			return 1
		}
		var turn *agent.Turn
		var err error
		if mode == msgAgentPositional {
			turn, err = positionalMessagesMerge(resp.Body)
		} else {
			turn, err = messages.Merge(resp.Body)
		}
		resp.Body.Close()
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		if len(turn.ToolCalls) == 0 {
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		}
		var asked, results []any
		for _, th := range turn.Thinking { // sent back first, signature and all
			switch th.Type {
			case agent.ThinkingText:
				asked = append(asked, map[string]any{"type": "thinking", "thinking": th.Text, "signature": th.Signature})
			case agent.ThinkingRedacted:
				asked = append(asked, map[string]any{"type": "redacted_thinking", "data": th.Data})
			}
		}
		if turn.Text != "" && mode != msgAgentTextLast {
			asked = append(asked, map[string]any{"type": "text", "text": turn.Text})
		}
		if mode == msgAgentTextFirst {
			results = append(results, map[string]any{"type": "text", "text": "Here are the results."})
		}
		for _, c := range turn.ToolCalls {
			var input any = json.RawMessage(c.Function.Arguments)
			if mode == msgAgentStringArgs {
				input = c.Function.Arguments
			}
			asked = append(asked, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Function.Name, "input": input})
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": c.ID, "content": "ok " + c.Function.Name})
		}
		if turn.Text != "" && mode == msgAgentTextLast {
			asked = append(asked, map[string]any{"type": "text", "text": turn.Text})
		}
		msgs = append(msgs, map[string]any{"role": "assistant", "content": asked}, map[string]any{"role": "user", "content": results})
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// positionalMessagesMerge is the bug this agent is built around: a
// content_block_start appends a block, and a delta goes to the block at the
// position its index names, so a stream whose indexes do not start at 0
// fails, and a call's input is only what its deltas carry. Otherwise it is
// careful: an error event, or a stream that ends before a stop_reason or
// message_stop, is an error.
func positionalMessagesMerge(r io.Reader) (*agent.Turn, error) {
	type block struct{ typ, id, name, text, args string }
	var blocks []*block
	stopped := false
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(strings.TrimSuffix(sc.Text(), "\r"), "data:")
		if !ok || strings.TrimSpace(data) == "" {
			continue
		}
		var ev struct {
			Type         string          `json:"type"`
			Index        int             `json:"index"`
			Error        json.RawMessage `json:"error"`
			ContentBlock struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return nil, err
		}
		switch ev.Type {
		case "error":
			return nil, fmt.Errorf("stream error: %s", ev.Error)
		case "message_stop":
			stopped = true
		case "message_delta":
			stopped = stopped || ev.Delta.StopReason != ""
		case "content_block_start":
			blocks = append(blocks, &block{typ: ev.ContentBlock.Type, id: ev.ContentBlock.ID, name: ev.ContentBlock.Name})
		case "content_block_delta":
			if ev.Index >= len(blocks) {
				return nil, fmt.Errorf("delta for block %d, but %d blocks started", ev.Index, len(blocks))
			}
			b := blocks[ev.Index]
			b.text += ev.Delta.Text
			b.args += ev.Delta.PartialJSON
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !stopped {
		return nil, agent.ErrTruncatedStream
	}
	var turn agent.Turn
	for _, b := range blocks {
		switch b.typ {
		case "text":
			turn.Text += b.text
		case "tool_use":
			if b.args == "" {
				b.args = "{}"
			}
			turn.ToolCalls = append(turn.ToolCalls, agent.ToolCall{ID: b.id, Type: "function", Function: agent.FunctionCall{Name: b.name, Arguments: b.args}})
		}
	}
	return &turn, nil
}
