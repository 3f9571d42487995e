package chat

import "github.com/agentvcr/agentvcr/wire/internal/jsonscan"

// What the scanner remembers of the chunks before, to read the next one with
// less work: the head they repeat (chunkHead), and a whole chunk with holes
// (chunkTemplate).

var choicesKey = []byte("choices")

// chunkHead is how the last chunk began, through its "choices" key: the
// members before it that only the object's name is kept of (the id, object,
// created, model and system_fingerprint every chunk of a stream repeats),
// as bytes. A chunk that begins with the same bytes would be scanned to the
// same place with the same result, so the scanner starts after them.
type chunkHead struct {
	head   []byte // through "choices": and the spaces after it
	object string // the chunk's object then
	seen   uint32 // the members' bits then
}

func (h *chunkHead) remember(head []byte, object string, objectSeen bool) {
	h.head, h.object, h.seen = append(h.head[:0], head...), object, 0
	if objectSeen {
		h.seen = 1 << 0
	}
}

// Shapes of chunk a chunkTemplate keeps.
const (
	templateNone    = iota
	templateArgs    // one choice whose delta is one tool call piece: an index and a string of arguments
	templateContent // one choice whose delta is a string of content
)

// chunkTemplate is the last chunk of a shape that a stream repeats with
// other values, as a jsonscan.Template: a piece of arguments (holes: the
// tool call's index and the arguments string) or of content (hole: the
// content string), with everything else (the envelope, the choice's index
// and finish_reason, members skipped) the same bytes. A chunk that matches
// it decodes to the remembered chunk with the new values, which match puts
// in place: the scanner is not run.
//
// Only a chunk that keeps no bytes of its data but the holes' is kept: no
// usage, error, refusal, reasoning or extra_content, no id or name in the
// piece (a chunk that opens a call is not repeated), and its object not
// "error", so chunkError is nil for every chunk that matches.
type chunkTemplate struct {
	t      jsonscan.Template
	shape  int // templateArgs or templateContent
	c      chunk
	choice [1]choice
	piece  [1]toolPiece
	hits   int // chunks matched (tests check that the stream they merge was)
}

// remember keeps the chunk c, which the scanner s read from data, when it
// has one of the shapes; any other chunk leaves the template as it was.
func (t *chunkTemplate) remember(data []byte, c *chunk, s *scanner) {
	shape := templateShape(c)
	if shape == templateNone {
		return
	}
	var ok bool
	if shape == templateArgs {
		ok = t.t.Remember(data, s.indexAt, s.textAt)
	} else {
		ok = t.t.Remember(data, s.textAt)
	}
	if !ok {
		t.shape = templateNone
		return
	}
	t.shape = shape
	t.choice[0] = c.Choices[0]
	t.choice[0].Delta.ToolCalls = nil
	if shape == templateArgs {
		t.piece[0] = c.Choices[0].Delta.ToolCalls[0]
		t.choice[0].Delta.ToolCalls = t.piece[:]
	}
	t.c = chunk{Object: c.Object, Choices: t.choice[:]}
}

// templateShape is the shape of a chunk the template may keep.
func templateShape(c *chunk) int {
	if len(c.Choices) != 1 || c.Usage.Value != nil || c.Object == "error" ||
		c.Error != nil || c.Message != nil || c.Type != nil || c.Code != nil {
		return templateNone
	}
	d := &c.Choices[0].Delta
	if d.Refusal != nil || d.ReasoningContent != nil || d.Reasoning != nil || d.ReasoningDetails != nil {
		return templateNone
	}
	switch {
	case len(d.ToolCalls) == 0 && len(d.Content) > 0 && d.Content[0] == '"':
		return templateContent
	case len(d.ToolCalls) == 1 && d.Content == nil:
		p := &d.ToolCalls[0]
		if p.ID == "" && p.Function.Name == "" && p.Extra == nil && p.Index.Set &&
			len(p.Function.Arguments) > 0 && p.Function.Arguments[0] == '"' {
			return templateArgs
		}
	}
	return templateNone
}

// match returns the chunk data decodes to when it matches the template,
// else nil. The chunk is the template's own, valid until the next call.
func (t *chunkTemplate) match(data []byte) *chunk {
	var vals [jsonscan.MaxHoles]jsonscan.Value // on the stack: no write barriers
	if t.shape == templateNone || !t.t.Match(data, &vals) {
		return nil
	}
	t.hits++
	if t.shape == templateArgs {
		t.piece[0].Index.N = vals[0].N
		t.piece[0].Function.Arguments = vals[1].B
	} else {
		t.choice[0].Delta.Content = vals[0].B
	}
	return &t.c
}
