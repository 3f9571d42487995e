package responses

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// respTemplate is the last delta event (of function call arguments or of
// output text), or the last done event of them, the scanner read, as a jsonscan.Template whose holes are
// its sequence_number, item_id, output_index, content_index, text and the
// strings the scanner skips (the obfuscation padding, which changes on
// every event): the events a stream is mostly made of differ from the one
// before only there. An event that matches it is that delta with the new
// values; the scanner is not run.
type respTemplate struct {
	t        jsonscan.Template
	ok       bool
	d        respDelta // the delta remembered: its type and which members it had
	roles    [jsonscan.MaxHoles]holeRole
	itemType []byte // an output item's type, the one member of it not a hole
	hits     int    // events matched (tests check that the stream they merge was)
}

// respTemplates are the templates of the two families of events a stream
// repeats: the deltas, and the done events of arguments and text (one per
// call or message, each after its deltas).
type respTemplates struct {
	delta, done     respTemplate
	added, itemDone respTemplate // output_item.added and output_item.done
}

// remember keeps the event d that the scanner s read from data in the
// template of its family; any other event leaves them as they were.
func (ts *respTemplates) remember(data []byte, d *respDelta, s *scanner) {
	switch d.typ {
	case "response.function_call_arguments.delta", "response.output_text.delta":
		ts.delta.remember(data, d, s)
	case "response.function_call_arguments.done", "response.output_text.done":
		ts.done.remember(data, d, s)
	case "response.output_item.added":
		ts.added.remember(data, d, s)
	case "response.output_item.done":
		ts.itemDone.remember(data, d, s)
	}
}

// match reports whether data matches one of the templates and then fills d
// as scanRespDelta would.
func (ts *respTemplates) match(data []byte, d *respDelta) bool {
	return ts.delta.match(data, d) || ts.done.match(data, d) || ts.added.match(data, d) || ts.itemDone.match(data, d)
}

// remember keeps the event d that the scanner s read from data.
func (t *respTemplate) remember(data []byte, d *respDelta, s *scanner) {
	t.ok = !s.over && t.t.Remember(data, s.holes[:s.n]...)
	t.d = respDelta{typ: d.typ, key: d.key, hasSeq: d.hasSeq, hasOutput: d.hasOutput, hasContent: d.hasContent}
	if d.item.typ != nil {
		t.itemType = append(t.itemType[:0], d.item.typ...) // a copy: d's bytes are the event's
		t.d.item.typ = t.itemType
	}
	t.roles = s.roles
}

// match reports whether data matches the template and then fills d as
// scanRespDelta would (its item only when the event carries one: d.item is
// read only then).
func (t *respTemplate) match(data []byte, d *respDelta) bool {
	var vals [jsonscan.MaxHoles]jsonscan.Value // on the stack: no write barriers
	if !t.ok || !t.t.Match(data, &vals) {
		return false
	}
	t.hits++
	// A whole respDelta would be copied with its pointers' write barriers:
	// an item only for the events that carry one.
	d.typ, d.key = t.d.typ, t.d.key
	d.seq, d.hasSeq = 0, t.d.hasSeq
	d.outputIndex, d.hasOutput = 0, t.d.hasOutput
	d.contentIndex, d.hasContent = 0, t.d.hasContent
	d.itemID, d.delta = nil, nil
	if t.d.key == "item" {
		d.item = t.d.item
	}
	for i, role := range t.roles[:t.t.Holes()] {
		switch v := &vals[i]; role {
		case roleSeq:
			d.seq = v.N
		case roleItem:
			d.itemID = v.B[1 : len(v.B)-1]
		case roleOutput:
			d.outputIndex = v.N
		case roleContent:
			d.contentIndex = v.N
		case roleDelta:
			d.delta = v.B
		case roleItemID:
			d.item.id = v.B[1 : len(v.B)-1]
		case roleItemCallID:
			d.item.callID = v.B[1 : len(v.B)-1]
		case roleItemName:
			d.item.name = v.B[1 : len(v.B)-1]
		case roleItemArgs:
			d.item.args = v.B
		}
	}
	return true
}
