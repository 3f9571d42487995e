package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// MessagesCases returns the Anthropic Messages catalog in report order: the
// clean turn, every benign quirk of quirk.OfAPI, its broken
// streams (an overloaded_error in the middle of a call, a cut before
// message_stop; on the tool turn only, on every attempt), the thinking
// echo, then the faults.
func MessagesCases() []Case {
	cases := []Case{{ID: "messages_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as Anthropic streams it"}}
	for _, q := range quirk.OfAPI(messages.Format.Name) {
		c := quirkCase(q)
		if !q.Benign {
			c.Expect, c.ToolTurnOnly = ExpectBroken, true
		}
		if q.Name == "messages_overloaded_midstream" {
			c.Delivered = DeliveredNone // it breaks inside the first tool_use
		}
		cases = append(cases, c)
	}
	cases = append(cases, messagesEchoCase())
	return append(cases, faultCases("messages_")...)
}

// messagesCutPoint is cutPoint for a Messages stream: how many events to
// keep so that the stream breaks inside its second tool_use block (its only
// one when it has one), after that block's first non-empty partial_json.
func messagesCutPoint(events []sse.Event) (int, error) {
	type event struct {
		Type         string `json:"type"`
		Index        int    `json:"index"`
		ContentBlock struct {
			Type string `json:"type"`
		} `json:"content_block"`
		Delta struct {
			PartialJSON string `json:"partial_json"`
		} `json:"delta"`
	}
	parsed := make([]event, len(events))
	var uses []int
	for i, ev := range events {
		if ev.HasData && json.Unmarshal([]byte(ev.Data), &parsed[i]) == nil &&
			parsed[i].Type == "content_block_start" && parsed[i].ContentBlock.Type == "tool_use" {
			uses = append(uses, parsed[i].Index)
		}
	}
	if len(uses) == 0 {
		return 0, fmt.Errorf("no tool_use block to break the stream in: %w", quirk.ErrNotApplicable)
	}
	target := uses[min(1, len(uses)-1)]
	for i, p := range parsed {
		if p.Type == "content_block_delta" && p.Index == target && p.Delta.PartialJSON != "" {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("no input_json_delta to break the stream in: %w", quirk.ErrNotApplicable)
}
