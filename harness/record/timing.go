package record

import (
	"github.com/agentvcr/agentvcr/wire/eventstream"
	"net/http"
	"time"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// An arrival is one read of an upstream answer: the body's length once it
// arrived, and when, since the request went upstream.
type arrival struct {
	end int
	at  time.Duration
}

// eventTimes is when each SSE event of body arrived: the time of the read
// that brought its last byte. Only an event stream in the encoding it is
// recorded in has events to time (a compressed answer's reads are not the
// recorded text's bytes): for any other answer, nil.
func eventTimes(header http.Header, body []byte, reads []arrival) []time.Duration {
	ct := header.Get("Content-Type")
	if !isStream(ct) || (header.Get("Content-Encoding") != "" && header.Get("Content-Encoding") != "identity") || len(reads) == 0 {
		return nil
	}
	events := sse.SplitEvents
	if eventstream.IsMediaType(ct) {
		events = eventstream.Split // a Bedrock answer: a time per message
	}
	var at []time.Duration
	end, r := 0, 0
	for _, e := range events(body) {
		end += len(e)
		for r < len(reads)-1 && reads[r].end < end {
			r++
		}
		at = append(at, reads[r].at)
	}
	return at
}

// setEventTimes puts the recorder's timing of an answer into the header
// it is recorded with, in place of any the upstream sent under that name.
func setEventTimes(header http.Header, at []time.Duration) {
	header.Del(cassette.EventTimesHeader)
	if len(at) > 0 {
		header.Set(cassette.EventTimesHeader, cassette.FormatEventTimes(at))
	}
}
