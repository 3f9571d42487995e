package tools

import "unicode/utf8"

// Call is one tool call as the model asked for it.
type Call struct {
	ID        string
	Name      string
	Arguments string // raw JSON text as merged from the stream
}

// Meta is information about a result for the terminal only; it is never fed
// back to the model.
type Meta struct {
	Truncated     bool // the middle of the content was cut
	OriginalChars int  // runes in the content before truncation
}

// Result is what Execute returns for every call: Content is the exact text fed
// back to the model, IsError marks a failure result.
type Result struct {
	Content string
	IsError bool
	Meta    Meta
}

// Chars is the length of Content in runes, the unit every limit counts in.
func (r Result) Chars() int { return utf8.RuneCountInString(r.Content) }
