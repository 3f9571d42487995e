package sse

// SplitEvents cuts an SSE body after each blank line (an event's end),
// whatever the line endings (LF, CRLF, CR); joined, the pieces are the body.
// A last event without its blank line is the last piece.
func SplitEvents(body []byte) [][]byte {
	var out [][]byte
	start, lineStart := 0, true
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
		if lineStart {
			out = append(out, body[start:i:i]) // capped: appending to an event never writes into the next
			start = i
		}
		lineStart = true
	}
	if start < len(body) {
		out = append(out, body[start:])
	}
	return out
}
