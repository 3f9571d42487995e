package chat

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// scanner is the lexer (jsonscan.Scanner) with this format's event shapes
// as methods: the fast path that decodes the common events without
// encoding/json. It notes where the last tool call index and the last
// argument or content string it read were, the holes of a chunkTemplate.
type scanner struct {
	jsonscan.Scanner
	indexAt, textAt jsonscan.Hole
}
