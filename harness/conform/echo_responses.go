package conform

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// responses_echo_reasoning, the Responses echo case: every turn begins with
// a reasoning item (output_index 0, the other items one index up, the
// sequence renumbered, response.completed's output with it first). The
// Responses API ties a reasoning item to the item after it: a follow-up
// request that sends a function_call item with its own id (fc_...) must
// send the reasoning item before it too, and a reasoning item sent must be
// followed by an assistant item; OpenAI answers 400 otherwise. An agent
// that sends its calls by call_id only, without reasoning items, passes
// (the API accepts it; the model does not see its reasoning again).

// echoReasoningItem names what responses_echo_reasoning checks.
const echoReasoningItem = "reasoning_item"

// probeResponseID is the id of the probe's tool turn as a Responses stream
// (gateway.StreamResponses's "resp_<script>_<turn>").
const probeResponseID = "resp_" + probeScript + "_1"

func responsesEchoCase() Case {
	return Case{ID: "responses_echo_reasoning", Tier: TierEcho, Expect: ExpectEcho, Echo: echoReasoningItem, Transform: addReasoningItem,
		Source: "cline/cline #12242, continuedev/continue #10018, vercel/ai #7099",
		Doc:    "a reasoning item before the turn's items; a call sent back with its item id needs that reasoning item before it, and a reasoning item needs the item after it (OpenAI answers 400)"}
}

// reasoningItemID is the id of the reasoning item addReasoningItem gives
// the response whose id is respID ("resp_conform_1" gives "rs_conform_1").
func reasoningItemID(respID string) string {
	return "rs_" + strings.TrimPrefix(respID, "resp_")
}

// addReasoningItem inserts a reasoning item at output_index 0 after the
// stream's leading response.created and response.in_progress events, moves
// every other item one index up, puts it first in the output of the
// response events after it and renumbers the sequence.
func addReasoningItem(body []byte, _ int64) ([]byte, error) {
	var out []sse.Event
	respID := ""          // the response's id, once response.created or in_progress was read
	var rs map[string]any // the reasoning item, once inserted
	for _, ev := range sse.Parse(body) {
		event, ok := decodeChunk(ev)
		if !ok {
			out = append(out, ev)
			continue
		}
		typ, _ := event["type"].(string)
		response := asMap(event["response"])
		if rs == nil && respID != "" && typ != "response.in_progress" {
			rs = map[string]any{"id": reasoningItemID(respID), "type": "reasoning",
				"summary": []any{map[string]any{"type": "summary_text", "text": probeReasoning}}}
			item, err := eventsOf(
				map[string]any{"type": "response.output_item.added", "sequence_number": 0, "output_index": 0,
					"item": map[string]any{"id": rs["id"], "type": "reasoning", "summary": []any{}}},
				map[string]any{"type": "response.output_item.done", "sequence_number": 0, "output_index": 0, "item": rs})
			if err != nil {
				return nil, err
			}
			out = append(out, item...)
		}
		if rs == nil && (typ == "response.created" || typ == "response.in_progress") {
			respID = fmt.Sprint(response["id"])
		}
		if err := bumpIndex(event, "output_index"); err != nil {
			return nil, err
		}
		if output, ok := response["output"].([]any); ok && rs != nil {
			response["output"] = append([]any{rs}, output...)
		}
		out = append(out, ev)
		if err := encodeChunk(&out[len(out)-1], event); err != nil {
			return nil, err
		}
	}
	if rs == nil {
		return nil, fmt.Errorf("no response.created with items after it: %w", quirk.ErrNotApplicable)
	}
	seq := 0
	for i, ev := range out { // renumbered, so that no event is out of order
		event, ok := decodeChunk(ev)
		if !ok || event["sequence_number"] == nil {
			continue
		}
		event["sequence_number"] = seq
		seq++
		if err := encodeChunk(&out[i], event); err != nil {
			return nil, err
		}
	}
	return sse.Format(out, "\n"), nil
}

// checkReasoningItems is checkEcho for responses_echo_reasoning on request
// n (from 1), whose tool-call turn is m; want is the reasoning item the
// tool turn streamed. sent reports that the request sent it back.
func checkReasoningItems(n int, r Request, m Message, want string) (v verdict, sent, ok bool) {
	if len(r.LoneReasoning) > 0 {
		return fail("request %d: the reasoning item %q is sent with no assistant item after it (OpenAI answers 400: it was provided without its required following item)", n, r.LoneReasoning[0]), false, false
	}
	for _, id := range m.ReasoningIDs {
		if id != want {
			return fail("request %d: the tool-call turn sends back the reasoning item %q, not %q", n, id, want), false, false
		}
	}
	sent = slices.Contains(m.ReasoningIDs, want)
	for i, c := range m.Calls {
		if c.ItemID != "" && !sent {
			return fail("request %d: call %d (%s) is sent with its item id %q but without the reasoning item %q before it (OpenAI answers 400: it was provided without its required reasoning item)", n, i+1, c.Name, c.ItemID, want), false, false
		}
	}
	return verdict{}, sent, true
}
