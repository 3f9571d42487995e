package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// The agents built to meet the verdict rules that judge against the clean
// run, honest refusal and the order rule: each plays the good chat agent
// with one behaviour of a real SDK or CLI, and must get exactly the
// verdict its rule gives.
const (
	// sends the history merged right, but runs each tool with the
	// arguments glued from every piece of its index: an SDK whose history
	// and executor read the stream apart, so that on cumulative pieces no
	// tool runs ("JSON parsing failed") behind a history that looks right
	ruleSplitBrain = "rule_splitbrain"
	// sends the history merged right, but prints each turn's text joined
	// from every choice's (the second choice's words printed)
	ruleDecoyPrint = "rule_decoyprint"
	// after a stream cut inside a call: keeps the raw partial input under
	// __unparsedToolInput, answers it with an error that says it could not
	// be parsed, and goes on (Claude Code)
	ruleRefuse = "rule_refuse"
	// after a stream cut inside a call: sends it as a call of a tool
	// named "invalid" with the parse error as its arguments (opencode)
	ruleInvalidTool = "rule_invalidtool"
	// after a stream cut inside a call: resets the arguments to {} and
	// answers with the tool's own validation error, as if the model had
	// sent {}
	ruleReset = "rule_reset"
	// re-sends every turn's calls, and their results, in reverse order
	ruleReversed = "rule_reversed"
)

func testRuleAgent(r *agentRun, mode string) int {
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + chat.Format.Path("")
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	for range 6 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "messages": msgs, "tools": testTools, "stream": true})
		resp, ok := r.postStream(func() (*http.Response, error) {
			return client.Post(url, "application/json", bytes.NewReader(body))
		}, r.sleep)
		if !ok {
			return 1
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		turn, err := chat.Merge(bytes.NewReader(raw))
		results := map[string]string{}
		for _, c := range turn.ToolCalls {
			results[c.ID] = "ok " + c.Function.Name
		}
		if err != nil {
			if len(turn.ToolCalls) == 0 || (mode != ruleRefuse && mode != ruleInvalidTool && mode != ruleReset) {
				fmt.Fprintln(r.stderr, "test agent:", err)
				return 1
			}
			cut := &turn.ToolCalls[len(turn.ToolCalls)-1]
			partial := cut.Function.Arguments
			switch mode {
			case ruleRefuse:
				in, _ := json.Marshal(map[string]any{"__unparsedToolInput": map[string]any{"raw": partial, "len": len(partial)}})
				cut.Function.Arguments = string(in)
				results[cut.ID] = "<tool_use_error>The tool input could not be parsed as JSON; the tool was not run.</tool_use_error>"
			case ruleInvalidTool:
				in, _ := json.Marshal(map[string]any{"tool": cut.Function.Name, "error": "JSON parsing failed: Text: " + partial})
				cut.Function.Name, cut.Function.Arguments = "invalid", string(in)
				results[cut.ID] = "The arguments provided to the tool are invalid: JSON parsing failed"
			case ruleReset:
				cut.Function.Arguments = "{}"
				results[cut.ID] = "Error: required property 'pattern' is missing"
			}
		}
		if mode == ruleInvalidTool && err == nil {
			// a whole call whose arguments are not JSON goes to "invalid" too
			for i := range turn.ToolCalls {
				c := &turn.ToolCalls[i]
				if !json.Valid([]byte(c.Function.Arguments)) {
					in, _ := json.Marshal(map[string]any{"tool": c.Function.Name, "error": "Invalid input for tool " + c.Function.Name + ": JSON parsing failed: Text: " + c.Function.Arguments})
					c.Function.Name, c.Function.Arguments = "invalid", string(in)
					results[c.ID] = "The arguments provided to the tool are invalid: JSON parsing failed"
				}
			}
		}
		if mode == ruleDecoyPrint {
			if naive, err := positionalMerge(bytes.NewReader(raw), false); err == nil {
				fmt.Fprintln(r.stdout, naive.Text) // every choice's text, joined
			}
		}
		if len(turn.ToolCalls) == 0 {
			if mode != ruleDecoyPrint {
				fmt.Fprintln(r.stdout, turn.Text)
			}
			return 0
		}
		if mode == ruleSplitBrain {
			for i, args := range gluedArguments(raw) {
				if i < len(turn.ToolCalls) && !json.Valid([]byte(args)) {
					c := turn.ToolCalls[i]
					results[c.ID] = "Invalid input for tool " + c.Function.Name + ": JSON parsing failed"
				}
			}
		}
		calls := turn.ToolCalls
		if mode == ruleReversed {
			calls = slices.Clone(calls)
			slices.Reverse(calls)
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text, ToolCalls: calls})
		for _, c := range calls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: results[c.ID]})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// gluedArguments are the argument pieces of a chat stream joined per
// tool_calls index (a missing index is 0), in the order the indexes first
// come: what an executor that appends every piece runs (of every choice:
// the tests give it one).
func gluedArguments(raw []byte) []string {
	var order []int
	glued := map[int]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
		if !ok {
			continue
		}
		var chunk argPiece // what broken.go reads of a chunk
		if json.Unmarshal([]byte(strings.TrimSpace(data)), &chunk) != nil {
			continue
		}
		for _, ch := range chunk.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				if _, seen := glued[tc.Index]; !seen {
					order = append(order, tc.Index)
				}
				glued[tc.Index] += tc.Function.Arguments
			}
		}
	}
	out := make([]string, len(order))
	for i, idx := range order {
		out[i] = glued[idx]
	}
	return out
}
