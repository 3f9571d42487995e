package chat

import (
	"bytes"
	"encoding/json"
)

// joinName adds one name piece to the name so far: appended, unless it
// repeats the whole name so far (llama.cpp and LiteLLM send the name on
// every piece), which adds nothing. So a name sent in pieces ("read_" then
// "file": Kimi, Gemini through continue, NeMo Switchyard) is joined, and ""
// never clobbers.
func joinName(sofar, piece string) string {
	if piece == sofar {
		return sofar
	}
	return sofar + piece
}

// arguments returns the call's arguments text. The pieces are deltas, and
// their concatenation is the answer whenever it is valid JSON: a genuine
// continuation may begin with the same bytes as the text so far (a nested
// object, `{"a":` then `{"a":1}}`), so no piece is ever judged by a prefix
// alone. Only when the concatenation is not valid JSON are the pieces read
// as cumulative, and the last piece is the arguments when it is valid JSON
// and carries what came before: it begins with the piece before it (every
// piece carries everything so far: DeepSeek, Qianfan, MiniMax) or it is the
// whole of the text before it (the arguments sent again after the deltas:
// OpenRouter). Otherwise the text is kept as sent, for the tool entry to
// report.
func (c *callSlot) arguments() []byte {
	if c.lastAt == 0 || json.Valid(c.args) {
		return c.args
	}
	last, before := c.args[c.lastAt:], c.args[:c.lastAt]
	prev := c.args[c.prevAt:c.lastAt]
	if json.Valid(last) && (bytes.HasPrefix(last, prev) || bytes.Equal(bytes.TrimSpace(last), bytes.TrimSpace(before))) {
		return last
	}
	return c.args
}
