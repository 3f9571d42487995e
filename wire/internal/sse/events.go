package sse

import (
	"bytes"
	"fmt"
	"io"
)

// Each reads r's events and hands each one's data, trimmed, to fn, with
// whether the event's type was "error"; data that is empty or "null" is
// skipped. It is the read loop every merger shares: it stops when fn says
// done (done true) or fails (fn's error as it is), at the end of r (done
// false, nil), or on a read error ("reading stream: ..." wrapping it,
// agent.ErrEventTooLarge among them). data is valid until fn returns.
func Each(r io.Reader, fn func(data []byte, isError bool) (done bool, err error)) (done bool, err error) {
	sr := NewReader(r)
	for {
		ev, err := sr.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("reading stream: %w", err)
		}
		data := trimSpace(ev.Data)
		if !ev.Error && (len(data) == 0 || string(data) == "null") {
			continue
		}
		if done, err := fn(data, ev.Error); done || err != nil {
			return done, err
		}
	}
}

// trimSpace is bytes.TrimSpace, with the answer for data that begins and
// ends with a visible ASCII byte (every event's JSON) given without a call.
func trimSpace(data []byte) []byte {
	if n := len(data); n > 0 && ' ' < data[0] && data[0] < 0x80 && ' ' < data[n-1] && data[n-1] < 0x80 {
		return data
	}
	return bytes.TrimSpace(data)
}
