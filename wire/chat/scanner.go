package chat

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// scanner is the lexer (jsonscan.Scanner) with this format's event shapes
// as methods: the fast path that decodes the common events without
// encoding/json.
type scanner struct{ jsonscan.Scanner }
