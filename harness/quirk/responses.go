package quirk

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/responses"
)

// responsesQuirks are the transforms of OpenAI Responses streams.
func responsesQuirks() []Quirk {
	q := func(name string, benign, warns bool, edit func([]*streamItem) ([]*streamItem, error), doc string) Quirk {
		return Quirk{Name: "responses_" + name, API: responses.Format.Name, Benign: benign, Warns: warns, Apply: respEdit(edit), Doc: doc}
	}
	qs := append([]Quirk{
		q("shared_output_index", true, false, sharedOutputIndex,
			"a reasoning item at each call's output_index: both 0 (decolua/9router #2611, theopenco/llmgateway #2908)"),
		q("added_by_call_id", true, false, addedByCallID,
			"output_item.added keyed by call_id, the deltas by item id (6Kmfi6HP/opencode2api #17, Oaklight/llm-rosetta #86)"),
		q("args_only_in_done", true, false, drop("response.function_call_arguments.delta"),
			"no argument deltas: the arguments only in function_call_arguments.done (BerriAI/litellm #27144)"),
		q("args_only_in_item_done", true, false, drop("response.function_call_arguments.delta", "response.function_call_arguments.done"),
			"the arguments only in output_item.done (BerriAI/litellm PR #27792)"),
		q("never_announced", true, false, drop("response.output_item.added", "response.content_part.added"),
			"no output_item.added or content_part.added: content for items never announced (BerriAI/litellm PR #36375)"),
		q("ids_rotate", true, false, idsRotate,
			"a new item id on every event of an item (GitHub Copilot: BerriAI/litellm #30071, vercel/ai PR #18548)"),
		q("args_one_rune", true, false, argsOneRune,
			"argument deltas of one rune each"),
		q("completed_empty", true, false, completedOutput(func([]any) []any { return []any{} }),
			"response.completed with an empty output after streamed items (NOirBRight/CodexHub #519)"),
		q("completed_reordered", true, false, completedOutput(reversed),
			"response.completed's output in reverse order (invergent-ai/surogate #175)"),
		q("no_created", true, false, drop("response.created", "response.in_progress"),
			"no response.created or response.in_progress: the stream starts with the items"),
		q("unknown_events", true, false, respUnknownEvents,
			"event types no client knows, between the events (vendor keepalives)"),
		q("done_marker", true, false, doneMarker,
			"data: [DONE] after response.completed (gateways bridging chat completions)"),
		q("args_done_differs", true, true, argsDoneDiffers,
			"the deltas carry the arguments re-spaced; function_call_arguments.done and output_item.done the exact text"),
		q("sequence_swapped", true, true, sequenceSwapped,
			"two events out of sequence_number order (a proxy fanning events out and back)"),
		q("bad_args", false, false, respBadArgs,
			"the first call's arguments lose their last '}', in its deltas and done events alike, and are not valid JSON (crush #3153)"),
		q("truncated", false, false, truncated,
			"the stream ends before response.completed (openai/codex #41340, caidaoli/ccLoad #59)"),
		q("failed", false, false, terminal("response.failed"),
			"response.failed instead of response.completed after HTTP 200 (lsdefine/GenericAgent #753)"),
		q("incomplete", false, false, terminal("response.incomplete"),
			"response.incomplete (max_output_tokens) instead of response.completed"),
		q("error_event", false, false, terminal("error"),
			"an error event instead of response.completed after HTTP 200 (lsdefine/GenericAgent #753)"),
		q("second_response", false, false, secondResponse,
			"a second response after the first one's response.completed, in the same stream"),
	}, responsesRound3Quirks(responses.Format.Name)...)
	for i := range qs {
		switch strings.TrimPrefix(qs[i].Name, "responses_") {
		case "added_by_call_id", "args_only_in_done", "args_only_in_item_done", "args_one_rune", "args_done_differs", "bad_args":
			qs[i].streaming = respCalls // they edit the calls' events (and response.completed after them)
		case "shared_output_index":
			qs[i].streaming = respCallsOrCompleted
		case "completed_empty", "completed_reordered", "done_marker", "truncated", "failed", "incomplete", "error_event", "second_response":
			qs[i].streaming = respFrom("response.completed")
		}
		switch strings.TrimPrefix(qs[i].Name, "responses_") {
		case "args_only_in_done", "args_only_in_item_done", "args_one_rune", "args_done_differs":
			qs[i].OnArguments = true // they move or cut the argument text only
		}
		if a, ok := respAspects[strings.TrimPrefix(qs[i].Name, "responses_")]; ok {
			qs[i].compose = a
		}
	}
	return qs
}

// respAspects is what each Responses quirk edits (Compose). The edits that
// add or drop events renumber the sequence numbers (renumber): they write
// them anew, so sequence_swapped goes after them.
var respAspects = map[string]aspects{
	"shared_output_index":    {edits: aIndex, rewrites: aSeq},
	"added_by_call_id":       {edits: aIDs, needs: aBlocks},
	"args_only_in_done":      {edits: aPieces, rewrites: aSeq},
	"args_only_in_item_done": {edits: aPieces, rewrites: aSeq},
	"never_announced":        {edits: aBlocks, rewrites: aSeq},
	"ids_rotate":             {edits: aIDs},
	"args_one_rune":          {edits: aPieces, rewrites: aSeq},
	"completed_empty":        {edits: aCompleted},
	"completed_reordered":    {edits: aCompleted},
	"no_created":             {edits: aStart, rewrites: aSeq},
	"unknown_events":         {edits: aUnknown, rewrites: aSeq},
	"done_marker":            {edits: aEndMarker},
	"args_done_differs":      {edits: aPieces},
	"sequence_swapped":       {edits: aSeq},
	"bad_args":               {edits: aArgs},
	"truncated":              {edits: aEnd, closes: afterEnd},
	"failed":                 {edits: aEnd, closes: afterEnd},
	"incomplete":             {edits: aEnd, closes: afterEnd},
	"error_event":            {edits: aEnd, closes: afterEnd},
	"second_response":        {edits: aEnd, rewrites: aSeq, closes: afterEnd},
}

// respEdit adapts an edit of a parsed Responses stream into an Apply
// function. The edited stream's sequence numbers are renumbered in order,
// unless the edit's point is their order.
func respEdit(edit func([]*streamItem) ([]*streamItem, error)) func([]byte, int64) ([]byte, error) {
	return func(body []byte, _ int64) ([]byte, error) {
		s, err := parseQuirkStream(body)
		if err != nil {
			return nil, err
		}
		if s.items, err = edit(s.items); err != nil {
			return nil, err
		}
		return s.bytes("\n")
	}
}

func typeOf(it *streamItem) string {
	if it.chunk == nil {
		return ""
	}
	return it.chunk.str("type")
}

// newEvent is an event of type typ whose data is obj.
func newEvent(obj *jsonObject) *streamItem {
	return &streamItem{ev: sse.Event{Name: obj.str("type"), HasData: true}, chunk: obj, dirty: true}
}

// object builds a jsonObject from keys and values in turn.
func object(kv ...any) *jsonObject {
	o := &jsonObject{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// renumber gives the events that carry a sequence_number 0, 1, 2, ... in order.
func renumber(items []*streamItem) []*streamItem {
	n := 0
	for _, it := range items {
		if it.chunk == nil {
			continue
		}
		if _, ok := it.chunk.get("sequence_number"); ok {
			if it.chunk.str("sequence_number") != fmt.Sprint(n) {
				it.chunk.set("sequence_number", json.Number(fmt.Sprint(n)))
				it.dirty = true
			}
			n++
		}
	}
	return items
}

// isCallItem reports an output_item event whose item is a function call.
func isCallItem(it *streamItem) bool {
	item := it.chunk.object("item")
	return item != nil && item.str("type") == "function_call"
}

func drop(types ...string) func([]*streamItem) ([]*streamItem, error) {
	return func(items []*streamItem) ([]*streamItem, error) {
		out := slices.DeleteFunc(items, func(it *streamItem) bool { return slices.Contains(types, typeOf(it)) })
		return renumber(out), nil
	}
}
