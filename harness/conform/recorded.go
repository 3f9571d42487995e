package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/cassette"
)

// ErrBadCassette is returned for a cassette recorded mode cannot replay.
var ErrBadCassette = errors.New("cannot replay the cassette")

// A Recording is recorded mode's input: a cassette recorded from the agent
// itself, replayed by turn.
type Recording struct {
	// Requests and Replies are the recorded bodies, interaction by
	// interaction; reply N answers the request carrying N assistant
	// messages.
	Requests, Replies [][]byte
	// Ignore lists the request fields the agent varies between runs (a
	// date in a prompt), as dotted paths where * matches any key or index:
	// "messages.0.content", "messages.*.name".
	Ignore []string
}

// ReadRecording reads a go-vcr v2.1.0 cassette (path with or without
// ".yaml").
func ReadRecording(path string) (*Recording, error) {
	c, err := cassette.Load(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w: record the agent into it first: agentvcr record -upstream URL -o %s", ErrBadCassette, err, path)
	}
	if len(c.Interactions) == 0 {
		return nil, fmt.Errorf("%w %s: it holds no interaction: record the agent again", ErrBadCassette, path)
	}
	r := &Recording{}
	for _, i := range c.Interactions {
		if sideRequest(i.Request.URL) {
			continue // answered apart on replay (answerSide), as when recorded
		}
		r.Requests = append(r.Requests, []byte(i.Request.Body))
		r.Replies = append(r.Replies, []byte(i.Response.Body))
	}
	return r, nil
}

// RecordedCases are recorded mode's cases in format f: the replay of the
// cassette as recorded (a sanity check: the agent must send what it sent
// when recorded), then every benign quirk of the format applied to every
// reply.
func RecordedCases(f Format) []Case {
	cases := []Case{{ID: "replay", Tier: TierRecorded, Source: "-", Doc: "the cassette replayed as recorded"}}
	for _, c := range f.Cases() {
		// a quirk that adds what the agent must send back makes requests
		// the replay never sent: no recorded case
		if c.Tier == TierQuirk && c.Transform != nil && c.Expect == ExpectSame && !c.Echoes {
			c.Tier = TierRecorded
			cases = append(cases, c)
		}
	}
	return cases
}

// canonical decodes a request body for comparison: ignored paths removed,
// then the call ids replaced by position (Format.renumber), so ids an agent
// made up compare equal.
func canonical(f Format, body []byte, ignore []string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	for _, p := range ignore {
		v = cassette.IgnorePath(v, p)
	}
	if top, ok := v.(map[string]any); ok && f.renumber != nil {
		f.renumber(top)
	}
	return v, nil
}

// callNumbers replaces call ids by their position in a conversation: call
// gives each call a number ("#1", "#2", ...) in order, answer the number of
// the call an answer names, from the latest run of calls.
type callNumbers struct {
	n       int
	current map[string]string
}

// calls starts a new run of calls (an assistant message's).
func (c *callNumbers) calls() { c.current = map[string]string{} }

// call numbers the call whose id is in m[key], in place.
func (c *callNumbers) call(m map[string]any, key string) {
	c.n++
	if id, ok := m[key].(string); ok {
		if c.current == nil {
			c.calls()
		}
		c.current[id] = "#" + strconv.Itoa(c.n)
		m[key] = c.current[id]
	}
}

// answer replaces the call id in m[key] by that call's number, in place.
func (c *callNumbers) answer(m map[string]any, key string) {
	if id, ok := m[key].(string); ok {
		if pos, known := c.current[id]; known {
			m[key] = pos
		} else {
			m[key] = "(no call) " + id
		}
	}
}

// renumberChat numbers each tool call's id and each tool message's
// tool_call_id.
func renumberChat(top map[string]any) {
	var c callNumbers
	for _, m := range asSlice(top["messages"]) {
		msg := asMap(m)
		if calls, ok := msg["tool_calls"].([]any); ok {
			c.calls()
			for _, call := range calls {
				if call, ok := call.(map[string]any); ok {
					c.call(call, "id")
				}
			}
		}
		c.answer(msg, "tool_call_id")
	}
}

// renumberMessages numbers each tool_use block's id and each tool_result
// block's tool_use_id.
func renumberMessages(top map[string]any) {
	var c callNumbers
	for _, m := range asSlice(top["messages"]) {
		msg := asMap(m)
		blocks := asSlice(msg["content"])
		if msg["role"] == "assistant" {
			c.calls()
		}
		for _, b := range blocks {
			block := asMap(b)
			switch block["type"] {
			case "tool_use":
				c.call(block, "id")
			case "tool_result":
				c.answer(block, "tool_use_id")
			}
		}
	}
}

// renumberResponses numbers each function_call item's call_id (and drops
// its item id, which the stream chose) and each function_call_output's
// call_id.
func renumberResponses(top map[string]any) {
	var c callNumbers
	inCalls := false
	for _, it := range asSlice(top["input"]) {
		item := asMap(it)
		switch item["type"] {
		case "function_call":
			if !inCalls {
				c.calls()
			}
			inCalls = true
			c.call(item, "call_id")
			if _, ok := item["id"]; ok {
				item["id"] = "(item id)"
			}
			continue
		case "function_call_output":
			c.answer(item, "call_id")
		}
		inCalls = false
	}
}

// checkRecorded compares what the agent sent, request by request, with
// want (the recording for the replay, the replay's requests for a quirk),
// and wants exit 0.
func checkRecorded(f Format, want [][]byte, against string, ignore []string, o outcome) verdict {
	if v, ok := checkStart(o); !ok {
		return v
	}
	for i := range min(len(want), len(o.requests)) {
		w, err := canonical(f, want[i], ignore)
		if err != nil {
			return fail("%s request %d is not JSON: %v", against, i+1, err)
		}
		g, err := canonical(f, o.requests[i].req.Body, ignore)
		if err != nil {
			return fail("request %d is not JSON: %v", i+1, err)
		}
		if d := cmp.Diff(w, g); d != "" {
			return verdict{status: Failure, details: fmt.Sprintf("request %d differs from %s (ids compared by position)", i+1, against), diff: d}
		}
	}
	switch {
	case len(o.requests) != len(want):
		return fail("the agent sent %d requests, %s has %d%s", len(o.requests), against, len(want), stderrExcerpt(o.stderr))
	case o.timedOut:
		return fail("the agent was still running after -timeout %s: killed", o.timeout)
	case o.exitCode != 0:
		return fail("the agent exited with code %d%s", o.exitCode, stderrExcerpt(o.stderr))
	}
	return verdict{status: Success, details: fmt.Sprintf("%d requests equal to %s; exit 0", len(want), against)}
}

// recordedConversation serves the recording's replies by turn.
// The replies of a framed format (Bedrock's event stream) are served in
// its logical form, the events the framing carried, so that the format's
// quirks apply to them; the server frames them anew.
func recordedConversation(r *Recording, f Format) *conversation {
	turns := r.Replies
	if f.Framing != nil {
		turns = make([][]byte, len(r.Replies))
		for i, reply := range r.Replies {
			turns[i] = reply
			if logical, err := io.ReadAll(f.LogicalStream(bytes.NewReader(reply))); err == nil {
				turns[i] = logical
			}
		}
	}
	return &conversation{turns: turns}
}
