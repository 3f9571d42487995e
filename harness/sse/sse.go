package sse

import (
	"bytes"
	"strings"
)

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
// (id:, retry:) are dropped. It does not interpret the data.
func Parse(body []byte) []Event {
	var events []Event
	var cur Event
	flush := func() {
		if cur.HasData || cur.Name != "" || len(cur.Comments) > 0 {
			events = append(events, cur)
		}
		cur = Event{}
	}
	for _, line := range lines(body) {
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

// lines splits body on CRLF, LF or bare CR. A final line without an end
// is kept; the empty string after a final line end is not a line.
func lines(body []byte) []string {
	var lines []string
	for len(body) > 0 {
		i := bytes.IndexAny(body, "\r\n")
		if i < 0 {
			lines = append(lines, string(body))
			break
		}
		lines = append(lines, string(body[:i]))
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		body = body[i+1:]
	}
	return lines
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
