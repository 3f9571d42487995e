package sse

import (
	"errors"
	"mime"
)

// IsEventStream reports whether a Content-Type names an event stream:
// text/event-stream in any case, with any parameters, as media types are
// compared (RFC 9110 section 8.3.1: the type and subtype are
// case-insensitive). A reader that matches the exact lowercase text leaves
// a "Text/Event-Stream; charset=utf-8" answer out, and a quirk meant for
// it is then silently not applied. A parameter that does not parse leaves
// the type itself readable, and it is still an event stream.
func IsEventStream(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return (err == nil || errors.Is(err, mime.ErrInvalidMediaParameter)) && media == "text/event-stream"
}
