package sse

import "strings"

// An Event is one server-sent event as it stands on the wire.
type Event struct {
	// Comments are the event's comment lines without the leading ':'
	// (": keepalive" is " keepalive"), written before its fields.
	Comments []string
	// Name is the "event:" field; "" when absent.
	Name string
	// Data is the event's data lines joined with "\n" ("[DONE]", a chunk's
	// JSON). HasData tells an empty data line from no data line at all.
	Data    string
	HasData bool
}

// Parse splits an SSE body into events. It reads the framing a clean
// stream uses and the framing the quirk transforms produce: lines end in
// CRLF, LF or a bare CR; "data:" with or without one space; ':' comments;
// an event ends at a blank line or at the end of the body. Other fields
// (id:, retry:) are dropped. It does not interpret the data. The events'
// strings are parts of one copy of body.
func Parse(body []byte) []Event {
	var events []Event
	var cur Event
	flush := func() {
		if cur.HasData || cur.Name != "" || len(cur.Comments) > 0 {
			events = append(events, cur)
		}
		cur = Event{}
	}
	text := string(body)
	cr := strings.IndexByte(text, '\r') >= 0
	for text != "" {
		var line string
		line, text = cutLine(text, cr)
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, ":"):
			cur.Comments = append(cur.Comments, line[1:])
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "data":
				if cur.HasData {
					cur.Data += "\n" + value
				} else {
					cur.Data, cur.HasData = value, true
				}
			case "event":
				cur.Name = value
			}
		}
	}
	flush()
	return events
}

// cutLine returns text's first line, without its end (CRLF, LF or a bare
// CR; cr says whether text holds a CR at all), and the text after it. A
// last line without an end is a line; nothing after a last line end is.
func cutLine(text string, cr bool) (line, rest string) {
	var i int
	if cr {
		i = strings.IndexAny(text, "\r\n")
	} else {
		i = strings.IndexByte(text, '\n')
	}
	if i < 0 {
		return text, ""
	}
	line, rest = text[:i], text[i+1:]
	if text[i] == '\r' && rest != "" && rest[0] == '\n' {
		rest = rest[1:]
	}
	return line, rest
}

// Format writes events back with eol ("\n" or "\r\n") ending every line:
// comments, then "event: NAME", then one "data: " line per data line, then
// a blank line. Format(Parse(b), "\n") is b for a clean stream.
func Format(events []Event, eol string) []byte {
	size := 0 // the bytes written, so that they go into one buffer
	for _, ev := range events {
		for _, c := range ev.Comments {
			size += len(":") + len(c) + len(eol)
		}
		if ev.Name != "" {
			size += len("event: ") + len(ev.Name) + len(eol)
		}
		if ev.HasData {
			lines := strings.Count(ev.Data, "\n") + 1
			size += lines*(len("data: ")+len(eol)) + len(ev.Data) - (lines - 1)
		}
		size += len(eol)
	}
	if size == 0 {
		return nil
	}
	buf := make([]byte, 0, size)
	for _, ev := range events {
		for _, c := range ev.Comments {
			buf = append(append(append(buf, ':'), c...), eol...)
		}
		if ev.Name != "" {
			buf = append(append(append(buf, "event: "...), ev.Name...), eol...)
		}
		if ev.HasData {
			for data, more := ev.Data, true; more; {
				var line string
				line, data, more = strings.Cut(data, "\n")
				buf = append(append(append(buf, "data: "...), line...), eol...)
			}
		}
		buf = append(buf, eol...)
	}
	return buf
}
