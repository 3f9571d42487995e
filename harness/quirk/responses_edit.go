package quirk

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/internal/piece"
)

// sharedOutputIndex puts a reasoning item (added and done) at the
// output_index of each function call, before it, and in the final output.
func sharedOutputIndex(items []*streamItem) ([]*streamItem, error) {
	var out []*streamItem
	n := 0
	for _, it := range items {
		switch {
		case typeOf(it) == "response.output_item.added" && isCallItem(it):
			at, _ := it.chunk.get("output_index")
			id := fmt.Sprintf("rs_shared_%d", n)
			n++
			for _, typ := range []string{"response.output_item.added", "response.output_item.done"} {
				out = append(out, newEvent(object("type", typ, "sequence_number", json.Number("0"), "output_index", at,
					"item", object("id", id, "type", "reasoning", "summary", []any{}))))
			}
		case typeOf(it) == "response.completed":
			resp := it.chunk.object("response")
			var output []any
			for _, o := range resp.array("output") {
				if item, ok := o.(*jsonObject); ok && item.str("type") == "function_call" {
					output = append(output, object("id", fmt.Sprintf("rs_shared_%d", len(output)), "type", "reasoning", "summary", []any{}))
				}
				output = append(output, o)
			}
			if output != nil {
				resp.set("output", output)
				it.dirty = true
			}
		}
		out = append(out, it)
	}
	return renumber(out), nil
}

func addedByCallID(items []*streamItem) ([]*streamItem, error) {
	for _, it := range items {
		if typeOf(it) == "response.output_item.added" && isCallItem(it) {
			item := it.chunk.object("item")
			item.set("id", item.str("call_id"))
			it.dirty = true
		}
	}
	return items, nil
}

// idsRotate gives every event's item id (item_id, item.id, and the ids in
// response.completed's output) a new value, never seen before.
func idsRotate(items []*streamItem) ([]*streamItem, error) {
	n := 0
	fresh := func(id string) string {
		n++
		return fmt.Sprintf("%s_r%d", id, n)
	}
	for _, it := range items {
		if it.chunk == nil {
			continue
		}
		if id := it.chunk.str("item_id"); id != "" {
			it.chunk.set("item_id", fresh(id))
			it.dirty = true
		}
		if item := it.chunk.object("item"); item != nil && item.str("id") != "" {
			item.set("id", fresh(item.str("id")))
			it.dirty = true
		}
		if resp := it.chunk.object("response"); resp != nil && typeOf(it) == "response.completed" {
			for _, o := range resp.array("output") {
				if item, ok := o.(*jsonObject); ok && item.str("id") != "" {
					item.set("id", fresh(item.str("id")))
					it.dirty = true
				}
			}
		}
	}
	return items, nil
}

// argsOneRune re-sends each call's arguments one rune per delta.
func argsOneRune(items []*streamItem) ([]*streamItem, error) {
	return resplitDeltas(items, func(args string) []string { return oneRune(args) }), nil
}

// resplitDeltas replaces each call's argument deltas by deltas of the
// pieces split gives for its arguments text, where its first delta was.
func resplitDeltas(items []*streamItem, split func(string) []string) []*streamItem {
	args := map[string]string{}
	for _, it := range items {
		if typeOf(it) == "response.function_call_arguments.delta" {
			args[it.chunk.str("item_id")] += it.chunk.str("delta")
		}
	}
	var out []*streamItem
	placed := map[string]bool{}
	for _, it := range items {
		if typeOf(it) != "response.function_call_arguments.delta" {
			out = append(out, it)
			continue
		}
		id := it.chunk.str("item_id")
		if placed[id] {
			continue
		}
		placed[id] = true
		for _, piece := range split(args[id]) {
			d := it.chunk.clone()
			d.set("delta", piece)
			out = append(out, newEvent(d))
		}
	}
	return renumber(out)
}

func completedOutput(edit func([]any) []any) func([]*streamItem) ([]*streamItem, error) {
	return func(items []*streamItem) ([]*streamItem, error) {
		for _, it := range items {
			if typeOf(it) == "response.completed" {
				resp := it.chunk.object("response")
				resp.set("output", edit(resp.array("output")))
				it.dirty = true
			}
		}
		return items, nil
	}
}

func reversed(xs []any) []any {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// respUnknownEvents puts a vendor keepalive after response.created and after
// every output item, and an unknown typed event before response.completed.
func respUnknownEvents(items []*streamItem) ([]*streamItem, error) {
	var out []*streamItem
	for _, it := range items {
		if typeOf(it) == "response.completed" {
			out = append(out, newEvent(object("type", "response.rate_limits.updated", "sequence_number", json.Number("0"),
				"rate_limits", []any{object("name", "requests", "limit", json.Number("500"), "remaining", json.Number("499"))})))
		}
		out = append(out, it)
		switch typeOf(it) {
		case "response.created", "response.output_item.done":
			out = append(out, newEvent(object("type", "response.vendor.keepalive")))
		}
	}
	return renumber(out), nil
}

func doneMarker(items []*streamItem) ([]*streamItem, error) {
	return append(items, &streamItem{ev: sse.Event{Data: "[DONE]", HasData: true}}), nil
}

// argsDoneDiffers re-sends the argument deltas with a space after every ':'
// and ',' outside strings; the done events keep the exact text.
func argsDoneDiffers(items []*streamItem) ([]*streamItem, error) {
	return resplitDeltas(items, func(args string) []string { return piece.Split(spaced(args), piece.ArgsRunes) }), nil
}

// spaced adds a space after every ':' and ',' of JSON text outside strings.
func spaced(s string) string {
	var b strings.Builder
	in, esc := false, false
	for _, r := range s {
		b.WriteRune(r)
		switch {
		case esc:
			esc = false
		case in && r == '\\':
			esc = true
		case r == '"':
			in = !in
		case !in && (r == ':' || r == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// sequenceSwapped swaps the first call's function_call_arguments.done with
// the output_item.done after it (the item's own two done events), or, in a
// turn without calls, response.created with response.in_progress. The
// sequence numbers keep their values, so they go down once.
func sequenceSwapped(items []*streamItem) ([]*streamItem, error) {
	for i := 0; i+1 < len(items); i++ {
		if typeOf(items[i]) == "response.function_call_arguments.done" && typeOf(items[i+1]) == "response.output_item.done" {
			items[i], items[i+1] = items[i+1], items[i]
			return items, nil
		}
	}
	for i := 0; i+1 < len(items); i++ {
		if typeOf(items[i]) == "response.created" && typeOf(items[i+1]) == "response.in_progress" {
			items[i], items[i+1] = items[i+1], items[i]
			return items, nil
		}
	}
	return nil, fmt.Errorf("no two events to swap: %w", ErrNotApplicable)
}

// completedAt is the position of response.completed, or an error.
func completedAt(items []*streamItem) (int, error) {
	for i, it := range items {
		if typeOf(it) == "response.completed" {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no response.completed: %w", ErrNotApplicable)
}

func truncated(items []*streamItem) ([]*streamItem, error) {
	i, err := completedAt(items)
	if err != nil {
		return nil, err
	}
	return items[:i], nil
}

// terminal replaces response.completed by response.failed,
// response.incomplete or an error event.
func terminal(typ string) func([]*streamItem) ([]*streamItem, error) {
	return func(items []*streamItem) ([]*streamItem, error) {
		i, err := completedAt(items)
		if err != nil {
			return nil, err
		}
		seq, _ := items[i].chunk.get("sequence_number")
		resp := items[i].chunk.object("response").clone()
		resp.set("output", []any{})
		var ev *jsonObject
		switch typ {
		case "response.failed":
			resp.set("status", "failed")
			resp.set("error", object("code", "server_error", "message", "The server had an error while processing your request."))
			ev = object("type", typ, "sequence_number", seq, "response", resp)
		case "response.incomplete":
			resp.set("status", "incomplete")
			resp.set("incomplete_details", object("reason", "max_output_tokens"))
			ev = object("type", typ, "sequence_number", seq, "response", resp)
		default:
			ev = object("type", typ, "sequence_number", seq, "code", "rate_limit_exceeded",
				"message", "Rate limit reached. Please try again in 20s.", "param", nil)
		}
		items[i] = newEvent(ev)
		return items, nil
	}
}

// secondResponse appends a second response (created, a message item,
// completed) after the first one's response.completed.
func secondResponse(items []*streamItem) ([]*streamItem, error) {
	i, err := completedAt(items)
	if err != nil {
		return nil, err
	}
	first := items[i].chunk.object("response")
	resp := func(status string, output []any) *jsonObject {
		r := first.clone()
		r.set("id", first.str("id")+"_again")
		r.set("status", status)
		r.set("output", output)
		return r
	}
	text := "Again."
	msg := object("id", "msg_again", "type", "message", "status", "completed", "role", "assistant",
		"content", []any{object("type", "output_text", "text", text, "annotations", []any{})})
	zero := json.Number("0")
	items = append(items,
		newEvent(object("type", "response.created", "sequence_number", zero, "response", resp("in_progress", []any{}))),
		newEvent(object("type", "response.output_text.delta", "sequence_number", zero, "item_id", "msg_again", "output_index", zero, "content_index", zero, "delta", text)),
		newEvent(object("type", "response.output_item.done", "sequence_number", zero, "output_index", zero, "item", msg)),
		newEvent(object("type", "response.completed", "sequence_number", zero, "response", resp("completed", []any{msg}))),
	)
	return renumber(items), nil
}

// respBadArgs drops the last '}' of the first function call's arguments
// everywhere they appear: its last delta holding one, its
// function_call_arguments.done, its output_item.done and
// response.completed's output, so the stream stays consistent and merges
// to invalid JSON.
func respBadArgs(items []*streamItem) ([]*streamItem, error) {
	var itemID, callID string
	for _, it := range items {
		if typeOf(it) == "response.output_item.added" && isCallItem(it) {
			item := it.chunk.object("item")
			itemID, callID = item.str("id"), item.str("call_id")
			break
		}
	}
	if itemID == "" {
		return items, nil // no call: nothing to break
	}
	cut := func(o *jsonObject, key string) bool {
		v := o.str(key)
		j := strings.LastIndex(v, "}")
		if j < 0 {
			return false
		}
		o.set(key, v[:j]+v[j+1:])
		return true
	}
	last := -1
	for i, it := range items {
		if typeOf(it) == "response.function_call_arguments.delta" && it.chunk.str("item_id") == itemID && strings.Contains(it.chunk.str("delta"), "}") {
			last = i
		}
	}
	if last >= 0 {
		cut(items[last].chunk, "delta")
		items[last].dirty = true
	}
	for _, it := range items {
		switch typeOf(it) {
		case "response.function_call_arguments.done":
			if it.chunk.str("item_id") == itemID && cut(it.chunk, "arguments") {
				it.dirty = true
			}
		case "response.output_item.done":
			if item := it.chunk.object("item"); item != nil && item.str("call_id") == callID && cut(item, "arguments") {
				it.dirty = true
			}
		case "response.completed":
			for _, o := range it.chunk.object("response").array("output") {
				if item, ok := o.(*jsonObject); ok && item.str("call_id") == callID && cut(item, "arguments") {
					it.dirty = true
				}
			}
		}
	}
	return items, nil
}
