package quirk

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// messagesQuirks returns the transforms of a clean Anthropic Messages stream
// (as gateway.StreamMessages sends it) into the broken shapes gateways and
// proxies send, benign ones first, in a fixed order. Their names start with
// "messages_".
func messagesQuirks() []Quirk {
	qs := []Quirk{
		{Name: "messages_ping_before_delta", compose: aspects{edits: aPings}, streaming: eachEvent, Benign: true, Apply: msgEdit(pingBeforeDelta),
			Doc: "a ping between every content_block_start and its first delta (BerriAI/litellm #5063 trace)"},
		{Name: "messages_start_input_copied", compose: aspects{edits: aInput | aPieces}, streaming: msgFrom("content_block_start"), Benign: true, Apply: msgEdit(startInput(false)),
			Doc: "content_block_start already carries the whole input and the deltas repeat it (trpc-group/trpc-agent-go #1649)"},
		{Name: "messages_start_input_only", compose: aspects{edits: aInput | aPieces}, streaming: msgFrom("content_block_start"), Benign: true, Apply: msgEdit(startInput(true)),
			Doc: "the input only in content_block_start, no input_json_delta at all (trpc-group/trpc-agent-go #1649)"},
		{Name: "messages_input_null", compose: aspects{edits: aInput}, streaming: eachEvent, Benign: true, Apply: msgEdit(inputNull),
			Doc: `content_block_start with "input": null instead of the {} placeholder (translating proxies)`},
		{Name: "messages_no_empty_partial", compose: aspects{edits: aPieces}, streaming: msgCalls, Benign: true, Apply: msgEdit(dropEmptyPartials),
			Doc: `no partial_json "" delta first; a zero-argument call then sends no delta at all (BerriAI/litellm #5063)`},
		{Name: "messages_args_one_rune", OnArguments: true, compose: aspects{edits: aPieces}, streaming: msgCalls, Benign: true, Apply: msgEdit(resplitPartials(oneRune)),
			Doc: "partial_json arrives one rune per delta (fine-grained tool streaming: anthropics/anthropic-sdk-python #1517)"},
		{Name: "messages_args_split_escapes", OnArguments: true, compose: aspects{edits: aPieces}, streaming: msgCalls, Benign: true, Apply: msgEdit(resplitPartials(insideEscapes)),
			Doc: `partial_json split inside \" \\ and \uXXXX escapes (envoyproxy/ai-gateway #1465)`},
		{Name: "messages_index_from_1", compose: aspects{edits: aIndex}, streaming: msgBlocks, Benign: true, Apply: msgEdit(shiftBlocks),
			Doc: "every content block index one higher, block 0 never sent (maragudk/gai #297)"},
		{Name: "messages_text_after_tool_use", compose: aspects{edits: aOrder}, streaming: msgFrom("content_block_start"), Benign: true, Apply: msgEdit(textAfterToolUse),
			Doc: "the text block streamed after the tool_use blocks (anomalyco/opencode #5750)"},
		{Name: "messages_repeated_message_start", compose: aspects{edits: aStart}, streaming: msgFrom("content_block_stop"), Benign: true, Apply: msgEdit(repeatMessageStart),
			Doc: "message_start sent again, same id, after the first content block (vercel/ai #18402)"},
		{Name: "messages_end_turn_with_calls", compose: aspects{edits: aFinish}, streaming: eachEvent, Benign: true, Apply: msgEdit(endTurnWithCalls),
			Doc: `stop_reason "end_turn" although tool_use blocks were sent (OpenAI-to-Anthropic translators)`},
		{Name: "messages_usage_final_delta", compose: aspects{edits: aUsage}, Benign: true, Apply: msgEdit(usageInFinalDelta),
			Doc: "message_start usage all zero, the real counts only in the final message_delta (achetronic/adk-utils-go #33)"},
		{Name: "messages_unknown_events", compose: aspects{edits: aUnknown}, streaming: msgFrom("content_block_stop"), Benign: true, Apply: msgEdit(unknownEvents),
			Doc: "an unknown event type and an unknown delta type before the first block stops (the API may add both)"},
		{Name: "messages_no_event_lines", compose: aspects{edits: aEventLines}, streaming: eachEvent, Benign: true, Apply: noEventLines,
			Doc: "data: lines without event: lines (proxies that keep only data)"},
		{Name: "messages_crlf", compose: aspects{edits: aLineEnds}, streaming: eachEvent, Benign: true, Apply: crlf,
			Doc: "CRLF line endings (the SSE spec allows them; Azure-hosted proxies)"},
		{Name: "messages_no_message_stop", compose: aspects{edits: aEndMarker}, streaming: eachEvent, Benign: true, Apply: msgEdit(dropMessageStop),
			Doc: "the stream closes after message_delta without message_stop (use-agent-os/agent-os #2137)"},
		{Name: "messages_overloaded_midstream", compose: aspects{edits: aEnd, closes: afterEnd}, streaming: msgCalls, Benign: false, Apply: msgEdit(overloadedMidstream),
			Doc: "event: error overloaded_error in the first tool call's arguments after HTTP 200, then the end (anthropics/anthropic-sdk-python #688)"},
		{Name: "messages_cut_before_stop", compose: aspects{edits: aEnd, closes: afterEnd}, streaming: msgCalls, Benign: false, Apply: msgEdit(cutBeforeStop),
			Doc: "the connection drops inside the last tool call's arguments: no message_delta, no message_stop"},
	}
	qs = append(qs, messagesBlockQuirks()...)
	for i := range qs {
		qs[i].API = messages.Format.Name
	}
	return qs
}

// msgStream is a Messages stream with each event's data parsed, in order.
type msgStream struct {
	events []sse.Event
	data   []*jsonObject // nil for an event whose data is not an object
}

func parseMsgStream(body []byte) (*msgStream, error) {
	s := &msgStream{events: sse.Parse(body)}
	for _, ev := range s.events {
		var obj *jsonObject
		if ev.HasData {
			o, err := parseJSONObject(ev.Data)
			if err != nil {
				return nil, fmt.Errorf("event %q: %w", ev.Name, err)
			}
			obj = o
		}
		s.data = append(s.data, obj)
	}
	return s, nil
}

func (s *msgStream) bytes() []byte {
	for i, d := range s.data {
		if d != nil {
			b, _ := d.marshalLike(s.events[i].Data) // ordered objects of plain values always marshal
			s.events[i].Data = string(b)
		}
	}
	return sse.Format(s.events, "\n")
}

// typ is the event's type: its data's "type".
func (s *msgStream) typ(i int) string { return s.data[i].str("type") }

// insert puts an event (type and data) before position i.
func (s *msgStream) insert(i int, data *jsonObject) {
	s.events = append(s.events[:i], append([]sse.Event{{Name: data.str("type"), HasData: true}}, s.events[i:]...)...)
	s.data = append(s.data[:i], append([]*jsonObject{data}, s.data[i:]...)...)
}

func (s *msgStream) remove(i int) {
	s.events = append(s.events[:i], s.events[i+1:]...)
	s.data = append(s.data[:i], s.data[i+1:]...)
}

func (s *msgStream) index(i int) json.Number {
	v, _ := s.data[i].get("index")
	n, _ := v.(json.Number)
	return n
}

// toolUses lists the tool_use blocks' indexes, in stream order.
func (s *msgStream) toolUses() []json.Number {
	var out []json.Number
	for i := range s.data {
		if s.typ(i) == "content_block_start" && s.data[i].object("content_block").str("type") == "tool_use" {
			out = append(out, s.index(i))
		}
	}
	return out
}

// partials returns the positions of the input_json_delta events of block n.
func (s *msgStream) partials(n json.Number) []int {
	var out []int
	for i := range s.data {
		if s.typ(i) == "content_block_delta" && s.index(i) == n && s.data[i].object("delta").str("type") == "input_json_delta" {
			out = append(out, i)
		}
	}
	return out
}

// arguments joins the partial_json of block n.
func (s *msgStream) arguments(n json.Number) string {
	var a string
	for _, i := range s.partials(n) {
		a += s.data[i].object("delta").str("partial_json")
	}
	return a
}

func msgEdit(edit func(s *msgStream) error) func([]byte, int64) ([]byte, error) {
	return func(body []byte, _ int64) ([]byte, error) {
		s, err := parseMsgStream(body)
		if err != nil {
			return nil, err
		}
		if err := edit(s); err != nil {
			return nil, err
		}
		return s.bytes(), nil
	}
}

func obj(members ...any) *jsonObject {
	o := &jsonObject{}
	for i := 0; i+1 < len(members); i += 2 {
		o.set(members[i].(string), members[i+1])
	}
	return o
}
