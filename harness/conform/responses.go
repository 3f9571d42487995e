package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// ResponsesCases returns the OpenAI Responses catalog in report order: the
// clean turn, every Responses quirk of quirk.All (bad_args as in chat
// completions; the other broken streams, a cut or a failure before
// response.completed, on the tool turn only, on every attempt), the
// reasoning echo, then the faults.
func ResponsesCases() []Case {
	cases := []Case{{ID: "responses_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as OpenAI streams it"}}
	for _, q := range quirk.All() {
		if q.API != responses.Format.Name {
			continue
		}
		c := quirkCase(q)
		switch q.Name {
		case "responses_truncated", "responses_failed", "responses_incomplete", "responses_error_event":
			// these break after every call's output_item.done: each call
			// arrived whole, only the response's end did not
			c.Delivered = DeliveredAll
		}
		switch {
		case q.Name == "responses_bad_args":
			c.Expect = ExpectBadArgs
		case q.Name == "responses_second_response":
			c.Expect, c.ToolTurnOnly = ExpectFirstOrBroken, true
			c.NotOverWebSocket = "over a WebSocket the second response's frames come after the first one's end, where no client can tell them from the answer to its next request (nothing in a frame names the request it answers): the shape has no right answer there"
		case !q.Benign:
			c.Expect, c.ToolTurnOnly = ExpectBroken, true
		}
		cases = append(cases, c)
	}
	cases = append(cases, responsesEchoCase())
	cases = append(cases, faultCases("responses_")...)
	return append(cases, websocketCases()...)
}

// responsesCutPoint is cutPoint for a Responses stream: how many events to
// keep so that the stream breaks inside its second function_call item (its
// only one when it has one), after that item's first non-empty arguments
// delta.
func responsesCutPoint(events []sse.Event) (int, error) {
	type event struct {
		Type   string `json:"type"`
		ItemID string `json:"item_id"`
		Item   struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"item"`
		Delta string `json:"delta"`
	}
	parsed := make([]event, len(events))
	var calls []string
	for i, ev := range events {
		if ev.HasData && json.Unmarshal([]byte(ev.Data), &parsed[i]) == nil &&
			parsed[i].Type == "response.output_item.added" && parsed[i].Item.Type == "function_call" {
			calls = append(calls, parsed[i].Item.ID)
		}
	}
	if len(calls) == 0 {
		return 0, fmt.Errorf("no function_call item to break the stream in: %w", quirk.ErrNotApplicable)
	}
	target := calls[min(1, len(calls)-1)]
	for i, p := range parsed {
		if p.Type == "response.function_call_arguments.delta" && p.ItemID == target && p.Delta != "" {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("no function_call_arguments.delta to break the stream in: %w", quirk.ErrNotApplicable)
}
