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

// The agents built after what real coding agents do: each plays
// the good chat agent (agentGood) with one behaviour of Claude Code,
// opencode or Qwen Code added, and must get exactly the verdict the policy
// gives that behaviour.
const (
	// a HEAD preflight, a tool-less streamed title request and a
	// non-streamed JSON classifier before the conversation (it checks the
	// classifier's required fields), a memory request with another tool
	// set after it
	agentTitle = "real_title"
	// reads no stream with comment lines and no stream that fails: asks
	// again with "stream": false and reads the JSON (Claude Code)
	agentFallback = "real_fallback"
	// on a stream that fails, keeps the calls that completed, runs them
	// and goes on (Claude Code's cut_before_stop)
	agentSalvage = "real_salvage"
	// on a stream that fails, sends the delivered text back with a note
	// to resume, no call (Qwen Code's reset, Claude Code's overloaded)
	agentResume = "real_resume"
	// re-sends the assistant text as "[object Object]" (as four
	// agents did on content_parts)
	agentGarble = "real_garble"
	// merges every choice's calls (positionalMerge) and goes on while a
	// turn carries calls, for 50 turns (opencode's several_choices)
	agentLoop = "real_loop"
	// on content_parts, sends the request that gets the conclusion five
	// times, then exits 0 (Qwen Code's content_parts)
	agentAskAgain = "real_askagain"
	// prints its answer, except on crlf, where it exits 0 printing nothing
	agentMute = "real_mute"
)

func testRealAgent(r *agentRun, mode string) int {
	base := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/")
	url := base + chat.Format.Path("")
	client := r.client()
	post := func(v map[string]any) (*http.Response, bool) {
		v["model"] = "test-model"
		body, _ := json.Marshal(v)
		return r.postStream(func() (*http.Response, error) {
			return client.Post(url, "application/json", bytes.NewReader(body))
		}, r.sleep)
	}
	if mode == agentTitle {
		if code := sideRequests(r, client, base, post); code != 0 {
			return code
		}
	}
	msgs := []agent.Message{{Role: "system", Content: "You are a test agent."}, {Role: "user", Content: "look around"}}
	turns := 6
	if mode == agentLoop {
		turns = 50
	}
	asked := 0
	for range turns {
		req := map[string]any{"messages": msgs, "tools": testTools, "stream": true}
		resp, ok := post(req)
		if !ok {
			return 1
		}
		raw, readErr := io.ReadAll(resp.Body)
		resp.Body.Close()
		merge := chat.Merge
		if mode == agentLoop {
			merge = func(r io.Reader) (*agent.Turn, error) { return positionalMerge(r, false) }
		}
		turn, err := merge(bytes.NewReader(raw))
		if readErr != nil {
			err = readErr
		}
		if mode == agentFallback && (err != nil || bytes.Contains(raw, []byte("\n:"))) {
			req["stream"] = false
			if turn, err = postPlain(post, req); err != nil {
				fmt.Fprintln(r.stderr, "test agent: the non-streamed retry:", err)
				return 1
			}
		}
		if err != nil {
			switch mode {
			case agentSalvage:
				turn.ToolCalls = turn.ToolCalls[:max(len(turn.ToolCalls)-1, 0)] // the cut call
			case agentResume:
				msgs = append(msgs, agent.Message{Role: "assistant", Content: turn.Text},
					agent.Message{Role: "user", Content: "Your answer was cut off: resume where it stops."})
				continue
			default:
				fmt.Fprintln(r.stderr, "test agent:", err)
				return 1
			}
		}
		if len(turn.ToolCalls) == 0 {
			if mode == agentAskAgain && r.getenv(CaseVariable) == "content_parts" && asked < 4 {
				asked++
				continue // the same request again
			}
			if mode != agentMute || r.getenv(CaseVariable) != "crlf" {
				fmt.Fprintln(r.stdout, turn.Text)
			}
			if mode == agentTitle {
				return memoryRequest(r, post, msgs)
			}
			return 0
		}
		text := turn.Text
		if mode == agentGarble {
			text = "[object Object]"
		}
		msgs = append(msgs, agent.Message{Role: "assistant", Content: text, ToolCalls: turn.ToolCalls, Thinking: turn.Thinking})
		for _, c := range turn.ToolCalls {
			msgs = append(msgs, agent.Message{Role: "tool", ToolCallID: c.ID, Content: "ok " + c.Function.Name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// sideRequests are agentTitle's requests before the conversation: a HEAD
// on the server's root that must answer 200, a title request with no tools
// whose stream must merge, and a classifier asking for JSON without a
// stream, whose answer must fill the schema's required members.
func sideRequests(r *agentRun, client *http.Client, base string, post func(map[string]any) (*http.Response, bool)) int {
	resp, err := client.Head(strings.TrimSuffix(base, "/v1") + "/api/hello")
	if err != nil || resp.StatusCode != http.StatusOK {
		fmt.Fprintln(r.stderr, "test agent: the preflight:", err, resp.Status)
		return 4
	}
	title, ok := post(map[string]any{"stream": true, "messages": []agent.Message{
		{Role: "system", Content: "You are a title generator."}, {Role: "user", Content: "look around"}}})
	if !ok {
		return 4
	}
	turn, err := chat.Merge(title.Body)
	title.Body.Close()
	if err != nil || turn.Text == "" {
		fmt.Fprintln(r.stderr, "test agent: the title:", err)
		return 4
	}
	schema := json.RawMessage(`{"type":"object","properties":{"reasoning":{"type":"string"},"score":{"type":"integer"}},"required":["reasoning","score"]}`)
	turn, err = postPlain(post, map[string]any{"stream": false,
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "route", "schema": schema}},
		"messages":        []agent.Message{{Role: "system", Content: "Score the task."}, {Role: "user", Content: "look around"}}})
	var route struct {
		Reasoning *string `json:"reasoning"`
		Score     *int    `json:"score"`
	}
	if err == nil {
		err = json.Unmarshal([]byte(turn.Text), &route)
	}
	if err != nil || route.Reasoning == nil || route.Score == nil {
		fmt.Fprintf(r.stderr, "test agent: the classifier's answer lacks a required member: %v\n", err)
		return 4
	}
	return 0
}

// memoryRequest is agentTitle's request after the conversation: the same
// conversation with another tool set.
func memoryRequest(r *agentRun, post func(map[string]any) (*http.Response, bool), msgs []agent.Message) int {
	resp, ok := post(map[string]any{"stream": true, "messages": append(msgs, agent.Message{Role: "user", Content: "save what you learnt"}),
		"tools": json.RawMessage(`[{"type":"function","function":{"name":"write_file","parameters":{"type":"object"}}}]`)})
	if !ok {
		return 4
	}
	defer resp.Body.Close()
	if _, err := chat.Merge(resp.Body); err != nil {
		fmt.Fprintln(r.stderr, "test agent: the memory request:", err)
		return 4
	}
	return 0
}

// postPlain posts req (no stream) and reads the chat completion's first
// choice as a turn.
func postPlain(post func(map[string]any) (*http.Response, bool), req map[string]any) (*agent.Turn, error) {
	resp, ok := post(req)
	if !ok {
		return nil, fmt.Errorf("no answer")
	}
	defer resp.Body.Close()
	var c struct {
		Choices []struct {
			Message agent.Message `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) == 0 {
		return nil, fmt.Errorf("not a chat completion: %v", err)
	}
	m := c.Choices[0].Message
	return &agent.Turn{Text: m.Content, ToolCalls: m.ToolCalls}, nil
}
