package responses

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/agentvcr/agentvcr/wire/internal/jsonscan"
	"github.com/google/go-cmp/cmp"
)

// FuzzMergeResponsesRechunk: any re-chunking of a Responses fixture's bytes
// merges to the same turn and the same error as reading it whole.
func FuzzMergeResponsesRechunk(f *testing.F) {
	streamtest.FuzzRechunk(f, streamtest.Fixtures(f, "testdata/streams"), Merge)
}

// FuzzMergeResponsesShapes: the calls come out the same whatever shape the
// plan gives the stream: arguments split anywhere and interleaved across
// calls, sent as deltas or only in a done event, item ids that rotate on
// every event, output_item.added keyed by call_id, a reasoning item at each
// call's output_index, an empty response.completed output.
func FuzzMergeResponsesShapes(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("\x0a\x80\x13\x07\x42 some longer seed that splits differently"))
	f.Fuzz(func(t *testing.T, plan []byte) {
		stream := responsesShapeStream(streamtest.FuzzCalls, plan)
		turn, err := Merge(strings.NewReader(stream))
		if err != nil {
			t.Fatalf("%v\nstream:\n%s", err, stream)
		}
		if diff := cmp.Diff(streamtest.FuzzCalls, turn.ToolCalls); diff != "" {
			t.Errorf("calls (-want +got):\n%s\nstream:\n%s", diff, stream)
		}
		if len(turn.Warnings) != 0 {
			t.Errorf("warnings %q on a stream whose done texts agree with its deltas\nstream:\n%s", turn.Warnings, stream)
		}
	})
}

// responsesShapeStream writes the calls as a Responses stream driven by
// plan. plan[0]'s bits: 1 ids rotate on every event, 2 output_item.added
// keyed by call_id, 4 a reasoning item shares each call's output_index, 8 no
// function_call_arguments.done, 16 no output_item.done; a call with index
// i%3 == 2 gets no deltas at all (its arguments only in the done events,
// or in response.completed when both are off). Then each byte picks the
// call that sends its next delta and that delta's length in runes (1 to 8).
func responsesShapeStream(calls []agent.ToolCall, plan []byte) string {
	next := func() byte {
		if len(plan) == 0 {
			return 0
		}
		b := plan[0]
		plan = plan[1:]
		return b
	}
	shape := next()
	rotate, byCallID, reasoning, noArgsDone, noItemDone := shape&1 != 0, shape&2 != 0, shape&4 != 0, shape&8 != 0, shape&16 != 0
	var b strings.Builder
	seq, rot := 0, 0
	emit := func(ev map[string]any) {
		ev["sequence_number"] = seq
		seq++
		data, _ := json.Marshal(ev)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", ev["type"], data)
	}
	itemID := func(i int) string {
		if rotate {
			rot++
			return fmt.Sprintf("rot_%d", rot)
		}
		return fmt.Sprintf("fc_%d", i)
	}
	item := func(i int, args string) map[string]any {
		return map[string]any{"id": itemID(i), "type": "function_call", "call_id": calls[i].ID, "name": calls[i].Function.Name, "arguments": args}
	}
	emit(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "status": "in_progress", "output": []any{}}})
	rest := make([]string, len(calls))
	for i, c := range calls {
		if i%3 != 2 {
			rest[i] = c.Function.Arguments
		}
		if reasoning {
			emit(map[string]any{"type": "response.output_item.added", "output_index": i, "item": map[string]any{"id": fmt.Sprintf("rs_%d", i), "type": "reasoning"}})
			emit(map[string]any{"type": "response.output_item.done", "output_index": i, "item": map[string]any{"id": fmt.Sprintf("rs_%d", i), "type": "reasoning"}})
		}
		added := item(i, "")
		if byCallID {
			added["id"] = calls[i].ID
		}
		emit(map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
	}
	for open := true; open; {
		open = false
		for _, r := range rest {
			open = open || r != ""
		}
		if !open {
			break
		}
		p := next()
		i := int(p) % len(calls)
		for rest[i] == "" {
			i = (i + 1) % len(calls)
		}
		n := 1 + int(p>>4)%8
		cut := 0
		for k := 0; k < n && cut < len(rest[i]); k++ {
			_, size := utf8.DecodeRuneInString(rest[i][cut:])
			cut += size
		}
		emit(map[string]any{"type": "response.function_call_arguments.delta", "item_id": itemID(i), "output_index": i, "delta": rest[i][:cut]})
		rest[i] = rest[i][cut:]
	}
	var output []any
	for i, c := range calls {
		if !noArgsDone {
			emit(map[string]any{"type": "response.function_call_arguments.done", "item_id": itemID(i), "output_index": i, "arguments": c.Function.Arguments})
		}
		if !noItemDone {
			emit(map[string]any{"type": "response.output_item.done", "output_index": i, "item": item(i, c.Function.Arguments)})
		}
		if noArgsDone && noItemDone && i%3 == 2 {
			output = append(output, item(i, c.Function.Arguments))
		}
	}
	emit(map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_1", "status": "completed", "output": output}})
	return b.String()
}

// FuzzScanRespDelta: whatever the fast path accepts, encoding/json decodes
// to the same members.
func FuzzScanRespDelta(f *testing.F) {
	f.Add([]byte(`{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":1,"delta":"{\"pa\u4e2d"}`))
	f.Add([]byte(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":2,"delta":"中文","logprobs":[]}`))
	f.Add([]byte(`{"type":"response.output_text.delta","Item_ID":"x","delta":"a"}`))
	f.Add([]byte(`{"type":"response.output_text.delta","delta":"a","delta":"b"}`))
	f.Add([]byte(`{"type":"response.output_text.delta","delta":"\xff"}`))
	f.Add([]byte(`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{\"a\":1}"}`))
	f.Add([]byte(`{"type":"response.output_text.done","item_id":"m","text":"t","delta":"x"}`))
	f.Add([]byte(`{"type":"response.function_call_arguments.done","name":"glob","arguments":"{}"}`))
	f.Add([]byte(`{"type":"response.output_item.added","sequence_number":3,"output_index":1,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"glob"}}`))
	f.Add([]byte(`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","content":[{"type":"output_text","text":"x"}]}}`))
	f.Add([]byte(`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","arguments":{"a":1}}}`))
	// The known heads the fast path compares as bytes, then anything.
	f.Add([]byte(`{"type":"response.output_text.delta","type":"response.output_text.done","text":"x"}`))
	f.Add([]byte(`{"type":"response.function_call_arguments.delta" , "delta" : "a" }`))
	f.Add([]byte(`{"type":"response.function_call_arguments.delta"}`))
	f.Add([]byte(`{"type":"response.output_text.delta","arguments":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d respDelta
		if scanRespDelta(data, &d) {
			checkFastDelta(t, data, &d)
		}
	})
}

// checkFastDelta: encoding/json decodes data to the members d holds.
func checkFastDelta(t *testing.T, data []byte, d *respDelta) {
	t.Helper()
	var ev respEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatalf("fast path accepted what encoding/json refuses: %v", err)
	}
	if d.key == "item" {
		if ev.Item == nil {
			t.Fatal("fast path read an item encoding/json did not")
		}
		args, _ := appendDeltaText(nil, ev.Item.Arguments)
		var fastArgs []byte
		if d.item.args != nil {
			fastArgs = jsonscan.AppendUnquoted(nil, d.item.args)
		}
		got := fmt.Sprint(d.typ, d.hasSeq, d.seq, d.hasOutput, d.outputIndex, string(d.item.id), string(d.item.typ), string(d.item.callID), string(d.item.name), string(fastArgs))
		want := fmt.Sprint(ev.Type, ev.SequenceNumber != nil, deref64(ev.SequenceNumber), ev.OutputIndex != nil, deref(ev.OutputIndex), ev.Item.ID, ev.Item.Type, ev.Item.CallID, ev.Item.Name, string(args))
		if got != want || len(ev.Item.Content) > 0 || len(ev.Item.Summary) > 0 {
			t.Errorf("fast path %s\nencoding/json %s", got, want)
		}
		return
	}
	var text string
	raw := ev.Delta
	switch ev.Type {
	case "response.function_call_arguments.done":
		raw = ev.Arguments
	case "response.output_text.done":
		raw, _ = json.Marshal(ev.Text)
	}
	if err := json.Unmarshal(raw, &text); err != nil {
		t.Fatalf("text of %s: %v", ev.Type, err)
	}
	got := fmt.Sprint(d.typ, d.hasSeq, d.seq, string(d.itemID), d.hasOutput, d.outputIndex, d.hasContent, d.contentIndex, string(jsonscan.AppendUnquoted(nil, d.delta)))
	want := fmt.Sprint(ev.Type, ev.SequenceNumber != nil, deref64(ev.SequenceNumber), ev.ItemID, ev.OutputIndex != nil, deref(ev.OutputIndex), ev.ContentIndex != nil, deref(ev.ContentIndex), text)
	if got != want {
		t.Errorf("fast path %s\nencoding/json %s", got, want)
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
