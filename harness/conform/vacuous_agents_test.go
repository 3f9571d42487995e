package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// The agents whose tools declare no parameters: the probe's calls carry
// nothing for an argument quirk to cut unless conform sends arguments
// anyway.
const (
	// tools with no parameters (extra members allowed, as JSON Schema
	// allows them unless it says otherwise); drops every argument piece
	// and sends each call back with "{}": right by accident while the
	// probe's calls carry nothing
	vacuousDropsArgs = "vacuous_dropsargs"
	// tools with no parameters that forbid any (additionalProperties:
	// false); merges right
	vacuousStrict = "vacuous_strict"
)

var (
	noParamTools = json.RawMessage(`[
 {"type":"function","function":{"name":"list_files","parameters":{"type":"object","properties":{}}}},
 {"type":"function","function":{"name":"read_status","parameters":{"type":"object","properties":{}}}}
]`)
	strictNoParamTools = json.RawMessage(`[
 {"type":"function","function":{"name":"list_files","parameters":{"type":"object","properties":{},"additionalProperties":false}}},
 {"type":"function","function":{"name":"read_status","parameters":{"type":"object","properties":{},"additionalProperties":false}}}
]`)
)

func testVacuousAgent(r *agentRun, mode string) int {
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + chat.Format.Path("")
	tools := noParamTools
	if mode == vacuousStrict {
		tools = strictNoParamTools
	}
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	for range 6 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": tools, "stream": true})
		resp, ok := r.postStream(func() (*http.Response, error) {
			return client.Post(url, "application/json", bytes.NewReader(body))
		}, r.sleep)
		if !ok {
			return 1
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		turn, err := chat.Merge(bytes.NewReader(raw))
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		if len(turn.ToolCalls) == 0 {
			fmt.Fprintln(r.stdout, turn.Text)
			return 0
		}
		if mode == vacuousDropsArgs {
			for i := range turn.ToolCalls {
				turn.ToolCalls[i].Function.Arguments = "{}"
			}
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: turn.ToolCalls})
		for _, c := range turn.ToolCalls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "listed " + c.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}
