package messages

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// scanner is the lexer (jsonscan.Scanner) with this format's event shapes
// as methods: the fast path that decodes the common events without
// encoding/json. It notes where the last index, delta text, block id and
// block name it read were, the holes of the eventTemplates.
type scanner struct {
	jsonscan.Scanner
	indexAt, valueAt, idAt, nameAt jsonscan.Hole
}
