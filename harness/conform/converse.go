package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/converse"
)

// converseFormat is Bedrock's Converse API. Its requests read into the
// same Request: an assistant message's toolUse blocks are its Calls (the
// input as JSON text), a user message becomes a tool message per
// toolResult block and a user message per run of text, in the order sent.
var converseFormat = Format{Format: converse.Format, Read: readConverse, cases: ConverseCases, cut: converseCutPoint, renumber: renumberConverse, dir: "converse"}

// ConverseCases returns the Converse catalog in report order: the clean
// turn, every Converse quirk (the broken ones on the tool turn only, on
// every attempt), then the faults.
func ConverseCases() []Case {
	cases := []Case{{ID: "converse_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as Bedrock's ConverseStream sends it: one event stream message per event"}}
	for _, q := range quirk.OfAPI(converse.Format.Name) {
		c := quirkCase(q)
		if !q.Benign {
			c.Expect, c.ToolTurnOnly = ExpectBroken, true
		}
		if q.Name == "converse_throttled_midstream" {
			c.Delivered = DeliveredNone // it breaks inside the first toolUse
		}
		cases = append(cases, c)
	}
	return append(cases, faultCases("converse_")...)
}

// converseWire is the part of a Converse request conform reads.
type converseWire struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content []converseBlock `json:"content"`
	} `json:"messages"`
	ToolConfig struct {
		Tools []struct {
			ToolSpec struct {
				Name        string `json:"name"`
				InputSchema struct {
					JSON json.RawMessage `json:"json"`
				} `json:"inputSchema"`
			} `json:"toolSpec"`
		} `json:"tools"`
	} `json:"toolConfig"`
}

type converseBlock struct {
	Text    *string `json:"text"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID string `json:"toolUseId"`
		Content   []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"toolResult"`
}

func readConverse(body []byte) (Request, error) {
	var w converseWire
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("%w: %w", ErrNotARequest, err)
	}
	if w.Messages == nil {
		return Request{}, fmt.Errorf("%w: no \"messages\" array", ErrNotARequest)
	}
	// ConverseStream always streams; the path says which model
	r := Request{Streams: true, Body: body}
	for _, t := range w.ToolConfig.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.ToolSpec.Name, Schema: t.ToolSpec.InputSchema.JSON})
	}
	for _, m := range w.Messages {
		if m.Role == "assistant" {
			msg := Message{Role: "assistant"}
			for _, b := range m.Content {
				switch {
				case b.Text != nil:
					msg.Text += *b.Text
					msg.TextAfterCalls = msg.TextAfterCalls || (len(msg.Calls) > 0 && *b.Text != "")
				case b.ToolUse != nil:
					msg.Calls = append(msg.Calls, Call{ID: b.ToolUse.ToolUseID, Name: b.ToolUse.Name, Arguments: string(b.ToolUse.Input)})
				}
			}
			r.Messages = append(r.Messages, msg)
			continue
		}
		for j, b := range m.Content {
			switch {
			case b.ToolResult != nil:
				text := ""
				for _, c := range b.ToolResult.Content {
					text += c.Text
				}
				r.Messages = append(r.Messages, Message{Role: "tool", CallID: b.ToolResult.ToolUseID, Text: text})
			case b.Text == nil:
			case j > 0 && m.Content[j-1].Text != nil:
				r.Messages[len(r.Messages)-1].Text += *b.Text // the same run of text
			default:
				r.Messages = append(r.Messages, Message{Role: m.Role, Text: *b.Text})
			}
		}
	}
	return r, nil
}

// converseCutPoint is cutPoint for a Converse stream: how many events to
// keep so that the stream breaks inside its second toolUse block (its only
// one when it has one), after that block's first non-empty input piece.
func converseCutPoint(events []sse.Event) (int, error) {
	type ev struct {
		ContentBlockStart *struct {
			ContentBlockIndex int `json:"contentBlockIndex"`
			Start             struct {
				ToolUse json.RawMessage `json:"toolUse"`
			} `json:"start"`
		} `json:"contentBlockStart"`
		ContentBlockDelta *struct {
			ContentBlockIndex int `json:"contentBlockIndex"`
			Delta             struct {
				ToolUse *struct {
					Input string `json:"input"`
				} `json:"toolUse"`
			} `json:"delta"`
		} `json:"contentBlockDelta"`
	}
	parsed := make([]ev, len(events))
	var uses []int
	for i, e := range events {
		if e.HasData && json.Unmarshal([]byte(e.Data), &parsed[i]) == nil && parsed[i].ContentBlockStart != nil && parsed[i].ContentBlockStart.Start.ToolUse != nil {
			uses = append(uses, parsed[i].ContentBlockStart.ContentBlockIndex)
		}
	}
	if len(uses) == 0 {
		return 0, fmt.Errorf("no toolUse block to break the stream in: %w", quirk.ErrNotApplicable)
	}
	target := uses[min(1, len(uses)-1)]
	for i, p := range parsed {
		if d := p.ContentBlockDelta; d != nil && d.ContentBlockIndex == target && d.Delta.ToolUse != nil && d.Delta.ToolUse.Input != "" {
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("no toolUse input to break the stream in: %w", quirk.ErrNotApplicable)
}

// renumberConverse numbers each toolUse's toolUseId and each toolResult's.
func renumberConverse(top map[string]any) {
	var c callNumbers
	for _, m := range asSlice(top["messages"]) {
		msg := asMap(m)
		if msg["role"] == "assistant" {
			c.calls()
		}
		for _, b := range asSlice(msg["content"]) {
			block := asMap(b)
			if u := asMap(block["toolUse"]); u != nil {
				c.call(u, "toolUseId")
			}
			if r := asMap(block["toolResult"]); r != nil {
				c.answer(r, "toolUseId")
			}
		}
	}
}
