package agent

import (
	"bufio"
	"bytes"
	"io"
)

// sseBufferSize is the read buffer of the SSE reader. Lines longer than it are
// assembled in a growing slice: there is no limit on line length.
const sseBufferSize = 64 << 10

// sseEvent is one dispatched server-sent event. Data is valid until the next
// call to sseReader.next.
type sseEvent struct {
	Error bool   // the event's type was "error"
	Data  []byte // the data lines joined with "\n"
}

// sseReader splits a byte stream into server-sent events: lines end in CRLF,
// LF or a bare CR; "data:" with or without one space; several data lines join
// with "\n"; comments and unknown fields are ignored; an event is dispatched
// on a blank line and at EOF.
type sseReader struct {
	br     *bufio.Reader
	long   []byte // a line that spans more than the buffered bytes
	skipLF bool   // the last line ended in CR: a LF right after belongs to it
	data   []byte // data of the event being built
	isData bool   // at least one data line was seen
	isErr  bool   // the event's type is "error"
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, sseBufferSize)}
}

// next returns the next event, or io.EOF after the last one.
func (s *sseReader) next() (sseEvent, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && (s.isData || s.isErr) {
				return s.dispatch(), nil
			}
			return sseEvent{}, err
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
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if s.isData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			s.isData = true
		case "event":
			s.isErr = string(value) == "error"
		}
	}
}

func (s *sseReader) dispatch() sseEvent {
	ev := sseEvent{Error: s.isErr, Data: s.data}
	s.data, s.isData, s.isErr = s.data[:0], false, false
	return ev
}

// readLine returns the next line without its end. The slice is valid until the
// next call. A last line without an end is returned before io.EOF.
func (s *sseReader) readLine() ([]byte, error) {
	s.long = s.long[:0]
	for {
		if _, err := s.br.Peek(1); err != nil {
			if err == io.EOF && len(s.long) > 0 {
				return s.long, nil
			}
			return nil, err
		}
		buf, _ := s.br.Peek(s.br.Buffered())
		if s.skipLF {
			s.skipLF = false
			if buf[0] == '\n' {
				s.br.Discard(1)
				continue
			}
		}
		end := bytes.IndexByte(buf, '\n')
		search := buf
		if end >= 0 {
			search = buf[:end]
		}
		if cr := bytes.IndexByte(search, '\r'); cr >= 0 {
			end = cr
			n := cr + 1
			switch {
			case n == len(buf):
				s.skipLF = true
			case buf[n] == '\n':
				n++
			}
			s.br.Discard(n)
		} else if end >= 0 {
			s.br.Discard(end + 1)
		} else {
			s.long = append(s.long, buf...)
			s.br.Discard(len(buf))
			continue
		}
		if len(s.long) > 0 {
			s.long = append(s.long, buf[:end]...)
			return s.long, nil
		}
		return buf[:end], nil
	}
}
