package messages

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// scanner is the lexer (jsonscan.Scanner) with this format's event shapes
// as methods: the fast path that decodes the common events without
// encoding/json. It notes where the last index and the last delta text it
// read were, the holes of a deltaTemplate.
type scanner struct {
	jsonscan.Scanner
	indexAt, valueAt jsonscan.Hole
}
