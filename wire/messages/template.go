package messages

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

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
