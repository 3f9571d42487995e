package agent

import "fmt"

// MaxEventBytes bounds one server-sent event: a line, or the data lines of
// one event joined, longer than this is ErrEventTooLarge. It bounds what a
// stream that never ends a line (or never ends an event) makes the reader
// hold. A chunk of a real stream is a few hundred bytes; a whole tool call's
// arguments in one chunk stay far below it.
const MaxEventBytes = 16 << 20

// ErrEventTooLarge: one line or one event of the stream is longer than
// MaxEventBytes; the stream is abandoned there.
var ErrEventTooLarge = fmt.Errorf("one server-sent event is larger than %d MiB (the limit of one event)", MaxEventBytes>>20)
