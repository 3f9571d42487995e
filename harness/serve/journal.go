package serve

import (
	"bytes"
	"encoding/json"
)

// A JournalEntry is one line of a Server's Journal: a request and what
// answered it.
type JournalEntry struct {
	Seq    int64  `json:"seq"`
	Case   string `json:"case"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Model  string `json:"model"`
	Turn   int    `json:"turn"`
	// Transport is "websocket" for a request sent as a response.create
	// frame; absent for HTTP.
	Transport string `json:"transport,omitempty"`
	// Status is the HTTP status sent (over a WebSocket, the status of the
	// error frame, or 200).
	Status int `json:"status"`
	// From names the recorded reply served ("" when none was).
	From string `json:"from,omitempty"`
	// Fault is the fault applied to this request, as ParseFault reads it.
	Fault string `json:"fault,omitempty"`
	// Error is the message of a miss (its diff a summary).
	Error string `json:"error,omitempty"`
	// Diff is a miss's whole diff against the nearest recorded request
	// (cassette.MissError's WholeDiff), every line as long as it is.
	Diff string `json:"diff,omitempty"`
	// Request is the request body: compact JSON, or a JSON string when the
	// body is not JSON.
	Request json.RawMessage `json:"request"`

	body []byte // Request before it is encoded, only when there is a journal
}

func journalBody(body []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, body) == nil {
		return buf.Bytes()
	}
	s, _ := json.Marshal(string(body))
	return s
}

func (s *Server) write(e JournalEntry) {
	if s.Journal == nil {
		return
	}
	e.Request = journalBody(e.body)
	line, err := json.Marshal(e)
	if err != nil {
		return // every field marshals
	}
	s.out.Lock()
	defer s.out.Unlock()
	s.Journal.Write(append(line, '\n'))
}
