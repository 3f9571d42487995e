package messages

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// eventTemplates are the events a Messages stream repeats with other
// values, remembered as jsonscan.Templates: an event that matches one is
// that event with the new values, and the scanner is not run.
type eventTemplates struct {
	delta deltaTemplate
	stop  stopTemplate
	start startTemplate
}

// remember keeps the event of type typ that the scanner s read from data
// in its template, when it has one.
func (ts *eventTemplates) remember(typ string, data []byte, d *blockDelta, s *scanner) {
	switch typ {
	case "content_block_delta":
		ts.delta.remember(data, d, s)
	case "content_block_stop":
		ts.stop.remember(data, s)
	case "content_block_start":
		ts.start.remember(data, d, s)
	}
}

// match returns the type of the event data is when it matches one of the
// templates, and fills d as scanEvent would for it (a stop's index, a
// start's index and block, a delta's index, type and text); "" when none
// matches.
func (ts *eventTemplates) match(data []byte, d *blockDelta) string {
	switch {
	case ts.delta.match(data, d):
		return "content_block_delta"
	case ts.stop.match(data, d):
		return "content_block_stop"
	case ts.start.match(data, d):
		return "content_block_start"
	}
	return ""
}

// startTemplate is the last content_block_start the scanner read: a text
// block (hole: the index) or a tool_use block (holes: the index, the id and
// the name, in that order).
type startTemplate struct {
	t    jsonscan.Template
	typ  string // the block's type
	hits int    // events matched
}

func (t *startTemplate) remember(data []byte, d *blockDelta, s *scanner) {
	t.typ = d.start.typ
	switch {
	case t.typ == "text":
		t.t.Remember(data, s.indexAt)
	case t.typ == "tool_use" && s.indexAt.End <= s.idAt.Start && s.idAt.End <= s.nameAt.Start:
		t.t.Remember(data, s.indexAt, s.idAt, s.nameAt)
	default:
		t.t.Forget()
	}
}

func (t *startTemplate) match(data []byte, d *blockDelta) bool {
	var vals [jsonscan.MaxHoles]jsonscan.Value
	if !t.t.Match(data, &vals) {
		return false
	}
	t.hits++
	d.index = vals[0].N
	d.start.typ, d.start.id, d.start.name = t.typ, nil, nil
	if t.typ == "tool_use" {
		d.start.id, d.start.name = unquoted(vals[1].B), unquoted(vals[2].B)
	}
	return true
}

// unquoted is a plain string literal's text.
func unquoted(lit []byte) []byte { return lit[1 : len(lit)-1] }

// stopTemplate is the last content_block_stop the scanner read, with its
// index as the hole.
type stopTemplate struct {
	t    jsonscan.Template
	hits int // events matched
}

// remember keeps the content_block_stop the scanner s read from data; one
// without an index forgets the template.
func (t *stopTemplate) remember(data []byte, s *scanner) {
	t.t.Remember(data, s.indexAt)
}

// match puts the index of the content_block_stop data is in d, when it
// matches the template.
func (t *stopTemplate) match(data []byte, d *blockDelta) bool {
	var vals [jsonscan.MaxHoles]jsonscan.Value
	if !t.t.Match(data, &vals) {
		return false
	}
	t.hits++
	d.index = vals[0].N
	return true
}

// deltaTemplate is the last content_block_delta the scanner read, as a
// jsonscan.Template with holes for its index and its text: the events a
// stream is mostly made of differ from the one before only there. An event
// that matches it is that delta with the new index and text; the scanner is
// not run.
type deltaTemplate struct {
	t    jsonscan.Template
	typ  string // the delta's type
	ok   bool   // t holds a delta
	hits int    // events matched (tests check that the stream they merge was)
}

// remember keeps the content_block_delta d that the scanner s read from
// data.
func (t *deltaTemplate) remember(data []byte, d *blockDelta, s *scanner) {
	t.ok = t.t.Remember(data, s.indexAt, s.valueAt)
	t.typ = d.typ
}

// match fills d's index, type and text, which are all merger.delta reads,
// and reports true when data matches the template.
func (t *deltaTemplate) match(data []byte, d *blockDelta) bool {
	var vals [jsonscan.MaxHoles]jsonscan.Value // on the stack: no write barriers
	if !t.ok || !t.t.Match(data, &vals) {
		return false
	}
	t.hits++
	// Only the members delta reads: a whole blockDelta would be copied
	// with its pointers' write barriers.
	d.index, d.typ, d.value, d.quoted = vals[0].N, t.typ, vals[1].B, true
	return true
}
