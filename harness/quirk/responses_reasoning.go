package quirk

import (
	"encoding/json"
	"fmt"
)

// Two OpenAI Responses quirks: reasoning sent as reasoning_text content
// parts, and a response id that changes on every lifecycle event.
func responsesRound3Quirks(api string) []Quirk {
	return []Quirk{
		{Name: "responses_reasoning_text_parts", compose: aspects{edits: aReasoning, rewrites: aSeq}, API: api, Benign: true, Reasoning: true, Apply: respEdit(reasoningTextParts),
			Doc: "a reasoning item first whose text comes as reasoning_text content parts (DeepSeek, LM Studio, OpenRouter: pydantic-ai and vercel/ai cassettes)"},
		{Name: "responses_response_id_rotates", compose: aspects{edits: aResponseIDs}, API: api, Benign: true, Apply: respEdit(responseIDRotates),
			Doc: "a new response id on every lifecycle event, as the item ids rotate (GitHub Copilot: vercel/ai fixture github-copilot-id-rotation)"},
	}
}

// reasoningText is the reasoning responses_reasoning_text_parts adds: a
// correct merger shows it apart and never in the answer.
const reasoningText = "Checking the request first."

// reasoningTextParts moves every item one output_index up and puts a
// reasoning item at 0 whose text streams as a reasoning_text content part
// (content_part.added, reasoning_text.delta twice, reasoning_text.done,
// content_part.done); response.completed's output gets it first.
func reasoningTextParts(items []*streamItem) ([]*streamItem, error) {
	const id = "rs_text_0"
	zero := json.Number("0")
	part := func(text string) *jsonObject { return object("type", "reasoning_text", "text", text) }
	item := func(text string) *jsonObject {
		content := []any{}
		if text != "" {
			content = append(content, part(text))
		}
		return object("id", id, "type", "reasoning", "summary", []any{}, "content", content)
	}
	half := len(reasoningText) / 2
	added := []*streamItem{
		newEvent(object("type", "response.output_item.added", "sequence_number", zero, "output_index", zero, "item", item(""))),
		newEvent(object("type", "response.content_part.added", "sequence_number", zero, "item_id", id, "output_index", zero, "content_index", zero, "part", part(""))),
		newEvent(object("type", "response.reasoning_text.delta", "sequence_number", zero, "item_id", id, "output_index", zero, "content_index", zero, "delta", reasoningText[:half])),
		newEvent(object("type", "response.reasoning_text.delta", "sequence_number", zero, "item_id", id, "output_index", zero, "content_index", zero, "delta", reasoningText[half:])),
		newEvent(object("type", "response.reasoning_text.done", "sequence_number", zero, "item_id", id, "output_index", zero, "content_index", zero, "text", reasoningText)),
		newEvent(object("type", "response.content_part.done", "sequence_number", zero, "item_id", id, "output_index", zero, "content_index", zero, "part", part(reasoningText))),
		newEvent(object("type", "response.output_item.done", "sequence_number", zero, "output_index", zero, "item", item(reasoningText))),
	}
	var out []*streamItem
	inserted := false
	for _, it := range items {
		if it.chunk == nil {
			out = append(out, it)
			continue
		}
		if v, ok := it.chunk.get("output_index"); ok {
			num, _ := v.(json.Number)
			n, err := num.Int64()
			if err != nil {
				return nil, fmt.Errorf("output_index %v: %w", v, ErrNotApplicable)
			}
			it.chunk.set("output_index", json.Number(fmt.Sprint(n+1)))
			it.dirty = true
		}
		typ := typeOf(it)
		if !inserted && typ != "response.created" && typ != "response.in_progress" && typ != "response.queued" {
			out, inserted = append(out, added...), true
		}
		if typ == "response.completed" {
			resp := it.chunk.object("response")
			resp.set("output", append([]any{item(reasoningText)}, resp.array("output")...))
			it.dirty = true
		}
		out = append(out, it)
	}
	return renumber(out), nil
}

// responseIDRotates gives every lifecycle event's response a new id.
func responseIDRotates(items []*streamItem) ([]*streamItem, error) {
	n := 0
	for _, it := range items {
		if resp := it.chunk.object("response"); resp != nil && resp.str("id") != "" {
			n++
			resp.set("id", fmt.Sprintf("%s_rot%d", resp.str("id"), n))
			it.dirty = true
		}
	}
	return items, nil
}
