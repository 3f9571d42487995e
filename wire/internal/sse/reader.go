package sse

import (
	"bytes"
	"errors"
	"io"

	"github.com/agentvcr/agentvcr/agent"
)

// sseBufferSize is the initial read buffer of the SSE reader. It doubles for a
// line longer than it, up to agent.MaxEventBytes.
const sseBufferSize = 64 << 10

// utf8BOM is skipped before the first line, as the SSE standard says.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Event is one dispatched server-sent event. Data is valid until the next
// call to Reader.Next.
type Event struct {
	Error bool   // the event's type was "error"
	Data  []byte // the data lines joined with "\n"
}

// Reader splits a byte stream into server-sent events: lines end in CRLF,
// LF or a bare CR; "data:" with or without one space; several data lines join
// with "\n"; comments and unknown fields are ignored, except a line that is
// no field at all but a JSON object with an "error" member (see
// isErrorObject), which is an error event of its own; an event is dispatched
// on a blank line and at EOF; a UTF-8 byte-order mark before the first line
// is skipped. A line or an event longer than Max is
// agent.ErrEventTooLarge. Finding line ends takes time linear in the input,
// whatever the line ends: each byte is searched for a LF at most once.
//
// It keeps its own buffer rather than a bufio.Reader so that an event with one
// data line (every chunk) is handed out as a slice of that buffer, without a
// copy: buffered bytes are only moved when the buffer is full, and a data line
// that still points into it is copied out first.
type Reader struct {
	r          io.Reader
	buf        []byte // buf[start:end] is read and not yet consumed
	start, end int
	err        error  // the reader's error, returned once the buffer is consumed
	skipLF     bool   // the last line ended in CR: a LF right after belongs to it
	data       []byte // data of the event being built
	own        []byte // the buffer data is joined in, once it is not a slice of buf
	inBuf      bool   // data is a slice of buf
	isData     bool   // at least one data line was seen
	isErr      bool   // the event's type is "error"
	bomDone    bool   // the start of the stream was checked for a BOM
	pendingErr []byte // an unframed error line met while an event was being built: the next event
	Max        int    // agent.MaxEventBytes unless set lower
	// lf is the index in buf of the first LF at or after lfFrom, or -1 when
	// buf[lfFrom:end] holds none; cr and crFrom the same for CR; all move
	// with the buffer's bytes.
	lf, lfFrom int
	cr, crFrom int
}

func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, Max: agent.MaxEventBytes, lf: -1, cr: -1}
}

// next returns the next event, or io.EOF after the last one.
func (s *Reader) Next() (Event, error) {
	if d := s.pendingErr; d != nil {
		s.pendingErr = nil
		return Event{Error: true, Data: d}, nil
	}
	for {
		line, err := s.readLine()
		if err == nil && !s.bomDone {
			s.bomDone = true
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if err != nil {
			if err == io.EOF && (s.isData || s.isErr) {
				return s.dispatch(), nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if s.isData || s.isErr {
				return s.dispatch(), nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		if line[0] == '{' && isErrorObject(line) {
			if s.isData || s.isErr {
				s.pendingErr = append([]byte(nil), line...)
				return s.dispatch(), nil
			}
			return Event{Error: true, Data: line}, nil
		}
		field, value := splitField(line)
		switch string(field) {
		case "data":
			if !s.isData {
				s.data, s.inBuf, s.isData = value, true, true
				continue
			}
			if len(s.data)+1+len(value) > s.Max {
				return Event{}, agent.ErrEventTooLarge
			}
			s.ownData()
			s.data = append(s.data, '\n')
			s.data = append(s.data, value...)
			s.own = s.data
		case "event":
			s.isErr = string(value) == "error"
		}
	}
}

// splitField splits a line at its first ':' into the field's name and its
// value, without the one space after the ':'; a line without ':' is a
// field's name alone. The lines nearly every stream is made of, "data:" and
// "event:", are split without searching for the ':'.
func splitField(line []byte) (field, value []byte) {
	var i int
	switch {
	case len(line) > 4 && line[4] == ':' && string(line[:4]) == "data":
		i = 4
	case len(line) > 5 && line[5] == ':' && string(line[:5]) == "event":
		i = 5
	default:
		if i = bytes.IndexByte(line, ':'); i < 0 {
			return line, nil
		}
	}
	field, value = line[:i], line[i+1:]
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return field, value
}

// ownData copies data out of buf, before buf changes under it.
func (s *Reader) ownData() {
	if s.inBuf {
		s.data = append(s.own[:0], s.data...)
		s.own, s.inBuf = s.data, false
	}
}

func (s *Reader) dispatch() Event {
	ev := Event{Error: s.isErr, Data: s.data}
	s.data, s.inBuf, s.isData, s.isErr = nil, false, false, false
	return ev
}

// readLine returns the next line without its end. The slice is valid until the
// next call. A last line without an end is returned before io.EOF.
func (s *Reader) readLine() ([]byte, error) {
	scanned := 0 // buf[start:start+scanned] holds no line end
	for {
		if s.skipLF && s.start < s.end {
			s.skipLF = false
			if s.buf[s.start] == '\n' {
				s.start++
			}
		}
		if at := s.lineEnd(s.start + scanned); at >= 0 {
			line := s.buf[s.start:at]
			s.start = at + 1
			if s.buf[at] == '\r' {
				switch {
				case s.start == s.end:
					s.skipLF = true
				case s.buf[s.start] == '\n':
					s.start++
				}
			}
			return line, nil
		}
		scanned = s.end - s.start
		if scanned > s.Max {
			return nil, agent.ErrEventTooLarge
		}
		if s.err != nil {
			if s.err == io.EOF && scanned > 0 {
				line := s.buf[s.start:s.end]
				s.start = s.end
				return line, nil
			}
			return nil, s.err
		}
		s.fill()
	}
}

// lineEnd returns the index in buf of the first CR or LF in buf[from:end],
// or -1. The LF and the CR found last are remembered, so that neither a run
// of lines ending in bare CRs nor one ending in LFs searches the same bytes
// again for the other line end: a stream without CRs is searched for one once
// per buffer read, not once per line.
func (s *Reader) lineEnd(from int) int {
	if from < s.end && (s.buf[from] == '\n' || s.buf[from] == '\r') {
		return from // a blank line, or the end of a line read before
	}
	if s.lf < from && s.lfFrom < s.end {
		s.lf, s.lfFrom = nextByte(s.buf, '\n', max(from, s.lfFrom), s.end)
	}
	if s.cr < from && s.crFrom < s.end {
		s.cr, s.crFrom = nextByte(s.buf, '\r', max(from, s.crFrom), s.end)
	}
	switch {
	case s.cr >= from && (s.lf < from || s.cr < s.lf):
		return s.cr
	case s.lf >= from:
		return s.lf
	}
	return -1
}

// nextByte returns the index of the first c in buf[begin:end] and where a
// later search for c starts: there, or -1 and end when there is none.
func nextByte(buf []byte, c byte, begin, end int) (at, searched int) {
	if i := bytes.IndexByte(buf[begin:end], c); i >= 0 {
		return begin + i, begin + i
	}
	return -1, end
}

// fill reads more bytes into buf, making room first: unconsumed bytes move to
// the front (data is copied out of the way before), or, when one line fills
// the whole buffer, the buffer doubles (the old one stays intact for data).
func (s *Reader) fill() {
	switch {
	case s.buf == nil:
		s.buf = make([]byte, sseBufferSize)
	case s.end == len(s.buf) && s.start > 0:
		s.ownData()
		s.shiftLF()
		s.end = copy(s.buf, s.buf[s.start:s.end])
		s.start = 0
	case s.end == len(s.buf):
		grown := make([]byte, 2*len(s.buf))
		s.shiftLF()
		s.end = copy(grown, s.buf[s.start:s.end])
		s.buf, s.start = grown, 0
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		if n < 0 || n > len(s.buf)-s.end {
			s.err = errors.New("invalid read count from the stream reader")
			return
		}
		s.end += n
		if err != nil || n > 0 {
			s.err = err
			return
		}
	}
	s.err = io.ErrNoProgress
}

// shiftLF moves the remembered LF and CR with the bytes buf[start:] moving
// to the front.
func (s *Reader) shiftLF() {
	if s.lf >= 0 {
		s.lf -= s.start
	}
	s.lfFrom = max(s.lfFrom-s.start, 0)
	if s.cr >= 0 {
		s.cr -= s.start
	}
	s.crFrom = max(s.crFrom-s.start, 0)
}
