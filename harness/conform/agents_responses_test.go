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
	"github.com/agentvcr/agentvcr/wire/responses"
)

// The purpose-built Responses agents: they post to OPENAI_BASE_URL +
// /responses, offer read_file, grep and write_file as Responses tools and
// send each turn back as function_call items followed by one
// function_call_output per call.
const (
	respAgentGood      = "responses_good"      // merges with responses.Merge; waits out a 429
	respAgentByItemID  = "responses_byitemid"  // finds items by the item_id of output_item.added only; arguments from the deltas only
	respAgentCompleted = "responses_completed" // takes response.completed's output as the turn, as openai-node's final response does
	respAgentItemIDOut = "responses_itemidout" // answers each call with the item's id instead of its call_id
	respAgentFirstDone = "responses_firstdone" // merges with responses.Merge what came up to the first response.completed and reads no further
	respAgentSalvage   = "responses_salvage"   // merges with responses.Merge and, when the stream breaks after calls, runs the calls it merged (Codex)
	respAgentTextAfter = "responses_textafter" // a good agent that sends its text message after the function_call items, as response.completed lists them
	// The two that send each function_call item back with its own id (fc_...):
	respAgentIDs            = "responses_ids"            // and the reasoning items before them, as the API requires
	respAgentIDsNoReasoning = "responses_idsnoreasoning" // and no reasoning item (the 400 that cline and continue users hit)
)

var testResponsesTools = json.RawMessage(`[
 {"type":"function","name":"write_file","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}},
 {"type":"function","name":"read_file","parameters":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["path"]}},
 {"type":"function","name":"grep","parameters":{"type":"object","properties":{"pattern":{"type":"string"},"glob":{"type":"string"}},"required":["pattern"]}}
]`)

// respCall is a call as a test agent keeps it: its item id too.
type respCall struct{ itemID, callID, name, args string }

func testResponsesAgent(r *agentRun, mode string) int {
	client := r.client()
	url := strings.TrimRight(r.getenv("OPENAI_BASE_URL"), "/") + "/responses"
	input := []any{map[string]any{"type": "message", "role": "user", "content": "look around"}}
	for range 4 {
		body, _ := json.Marshal(map[string]any{"model": "test-model", "instructions": "You are a test agent.",
			"input": input, "tools": testResponsesTools, "stream": true})
		post := func() (*http.Response, error) {
			req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "Bearer "+r.getenv("OPENAI_API_KEY"))
			req.Header.Set("Content-Type", "application/json")
			return client.Do(req)
		}
		resp, ok := r.postStream(post, r.sleep)
		if !ok {
			return 1
		}
		var text string
		var calls []respCall
		var reasoning []string
		var err error
		if mode == respAgentGood || mode == respAgentFirstDone || mode == respAgentSalvage || mode == respAgentTextAfter {
			var turn *agent.Turn
			body := io.Reader(resp.Body)
			if mode == respAgentFirstDone {
				body = untilFirstCompleted(resp.Body)
			}
			turn, err = responses.Merge(body)
			if err != nil && mode == respAgentSalvage && len(turn.ToolCalls) > 0 {
				err = nil
			}
			if err == nil {
				text = turn.Text
				for _, c := range turn.ToolCalls {
					calls = append(calls, respCall{callID: c.ID, name: c.Function.Name, args: c.Function.Arguments})
				}
			}
		} else {
			text, calls, reasoning, err = naiveResponsesMerge(resp.Body, mode == respAgentCompleted)
		}
		resp.Body.Close()
		if err != nil {
			fmt.Fprintln(r.stderr, "test agent:", err)
			return 1
		}
		if len(calls) == 0 {
			fmt.Fprintln(r.stdout, text)
			return 0
		}
		withIDs := mode == respAgentIDs || mode == respAgentIDsNoReasoning
		if mode == respAgentIDs {
			for _, id := range reasoning {
				input = append(input, map[string]any{"type": "reasoning", "id": id, "summary": []any{}})
			}
		}
		if text != "" && mode != respAgentTextAfter {
			input = append(input, map[string]any{"type": "message", "role": "assistant", "content": text})
		}
		for _, c := range calls {
			item := map[string]any{"type": "function_call", "call_id": c.callID, "name": c.name, "arguments": c.args}
			if withIDs {
				item["id"] = c.itemID
			}
			input = append(input, item)
		}
		if text != "" && mode == respAgentTextAfter {
			input = append(input, map[string]any{"type": "message", "role": "assistant", "content": text})
		}
		for _, c := range calls {
			answers := c.callID
			if mode == respAgentItemIDOut {
				answers = c.itemID
			}
			input = append(input, map[string]any{"type": "function_call_output", "call_id": answers, "output": "ok " + c.name})
		}
	}
	fmt.Fprintln(r.stderr, "test agent: too many turns")
	return 1
}

// untilFirstCompleted is the stream up to the end of its first
// response.completed event, where a reader that stops at the first
// response's end stops.
func untilFirstCompleted(r io.Reader) io.Reader {
	all, _ := io.ReadAll(r)
	if i := bytes.Index(all, []byte(`"type":"response.completed"`)); i >= 0 {
		if end := bytes.Index(all[i:], []byte("\n\n")); end >= 0 {
			all = all[:i+end+2]
		}
	}
	return bytes.NewReader(all)
}

// naiveResponsesMerge is the merger these agents are built around: an item
// is found by the id its output_item.added gave it, and a call's arguments
// are what its deltas carry (the .done events are ignored). With
// trustCompleted, response.completed's output replaces what was streamed,
// even when it is empty. Otherwise it is careful: failed, incomplete and
// error events are errors, and so is a stream without response.completed.
// reasoning are the ids of the reasoning items announced.
func naiveResponsesMerge(r io.Reader, trustCompleted bool) (string, []respCall, []string, error) {
	type item struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Content   []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	var text strings.Builder
	var calls []*respCall
	byID := map[string]*respCall{}
	var final []item
	completed := false
	var reasoning []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(strings.TrimSuffix(sc.Text(), "\r"), "data:")
		if !ok || strings.TrimSpace(data) == "" || strings.TrimSpace(data) == "[DONE]" {
			continue
		}
		var ev struct {
			Type     string `json:"type"`
			ItemID   string `json:"item_id"`
			Delta    string `json:"delta"`
			Item     item   `json:"item"`
			Response struct {
				Output []item `json:"output"`
			} `json:"response"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return "", nil, nil, err
		}
		switch ev.Type {
		case "response.output_item.added":
			switch ev.Item.Type {
			case "function_call":
				c := &respCall{itemID: ev.Item.ID, callID: ev.Item.CallID, name: ev.Item.Name}
				calls = append(calls, c)
				byID[ev.Item.ID] = c
			case "reasoning":
				reasoning = append(reasoning, ev.Item.ID)
			}
		case "response.function_call_arguments.delta":
			if c := byID[ev.ItemID]; c != nil {
				c.args += ev.Delta
			}
		case "response.output_text.delta":
			text.WriteString(ev.Delta)
		case "response.completed":
			completed, final = true, ev.Response.Output
		case "response.failed", "response.incomplete", "error":
			return "", nil, nil, fmt.Errorf("stream error: %s", data)
		}
	}
	if err := sc.Err(); err != nil {
		return "", nil, nil, err
	}
	if !completed {
		return "", nil, nil, agent.ErrTruncatedStream
	}
	var out []respCall
	if trustCompleted {
		text.Reset()
		for _, it := range final {
			switch it.Type {
			case "message":
				for _, p := range it.Content {
					text.WriteString(p.Text)
				}
			case "function_call":
				out = append(out, respCall{itemID: it.ID, callID: it.CallID, name: it.Name, args: it.Arguments})
			}
		}
		return text.String(), out, reasoning, nil
	}
	for _, c := range calls {
		out = append(out, *c)
	}
	return text.String(), out, reasoning, nil
}
