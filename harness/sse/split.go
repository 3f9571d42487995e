package sse

import "bytes"

// SplitEvents cuts an SSE body after each blank line (an event's end),
// whatever the line endings (LF, CRLF, CR); joined, the pieces are the body.
// A last event without its blank line is the last piece. The list is
// allocated once, at its length: a served cassette keeps one for each
// streamed reply.
func SplitEvents(body []byte) [][]byte {
	if len(body) == 0 {
		return nil
	}
	n, last := 0, 0
	eventEnds(body, func(end int) bool { n, last = n+1, end; return true })
	if last < len(body) {
		n++ // a last event without its blank line
	}
	out := make([][]byte, 0, n)
	start := 0
	eventEnds(body, func(end int) bool {
		out = append(out, body[start:end:end]) // capped: appending to an event never writes into the next
		start = end
		return true
	})
	if start < len(body) {
		out = append(out, body[start:])
	}
	return out
}

// FirstEventEnd is the length of body's first event as SplitEvents cuts
// it, 0 when body holds no blank line: what a reader of a stream that
// arrives in pieces asks after each piece, without cutting the rest.
func FirstEventEnd(body []byte) int {
	first := 0
	eventEnds(body, func(end int) bool { first = end; return false })
	return first
}

// eventEnds calls cut with the index just after each blank line of body,
// in order, until cut returns false.
func eventEnds(body []byte, cut func(end int) bool) {
	if bytes.IndexByte(body, '\r') < 0 {
		lfEventEnds(body, cut)
	} else {
		anyEventEnds(body, cut)
	}
}

// lfEventEnds is eventEnds of a body whose lines all end in LF, a line at
// a time.
func lfEventEnds(body []byte, cut func(end int) bool) {
	// i is at a line's start, and a line that is a lone LF is blank
	for i := 0; i < len(body); {
		if body[i] == '\n' {
			i++
			if !cut(i) {
				return
			}
			continue
		}
		j := bytes.IndexByte(body[i:], '\n')
		if j < 0 {
			return
		}
		i += j + 1
	}
}

// anyEventEnds is eventEnds of a body with any line endings, a byte at a
// time.
func anyEventEnds(body []byte, cut func(end int) bool) {
	lineStart := true
	for i := 0; i < len(body); {
		n := 0
		switch body[i] {
		case '\n':
			n = 1
		case '\r':
			n = 1
			if i+1 < len(body) && body[i+1] == '\n' {
				n = 2
			}
		}
		if n == 0 {
			lineStart = false
			i++
			continue
		}
		i += n
		if lineStart && !cut(i) {
			return
		}
		lineStart = true
	}
}
