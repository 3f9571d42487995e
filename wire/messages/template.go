package messages

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// eventTemplates are the events a Messages stream repeats with other
// values, remembered as jsonscan.Templates: an event that matches one is
// that event with the new values, and the scanner is not run.
type eventTemplates struct {
	delta deltaTemplate
	stop  stopTemplate
}

// remember keeps the event of type typ that the scanner s read from data
// in its template, when it has one.
func (ts *eventTemplates) remember(typ string, data []byte, d *blockDelta, s *scanner) {
	switch typ {
	case "content_block_delta":
		ts.delta.remember(data, d, s)
	case "content_block_stop":
		ts.stop.remember(data, s)
	}
}

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

// match returns the index of the content_block_stop data is, when it
// matches the template.
func (t *stopTemplate) match(data []byte) (int, bool) {
	var vals [jsonscan.MaxHoles]jsonscan.Value
	if !t.t.Match(data, &vals) {
		return 0, false
	}
	t.hits++
	return vals[0].N, true
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
