package tools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// binarySniff is how many leading bytes are checked for a NUL (git's number).
const binarySniff = 8000

// readBufSize is the bufio buffer for every file read.
const readBufSize = 64 << 10

// isBinary reports whether the first binarySniff bytes hold a NUL.
func isBinary(br *bufio.Reader) bool {
	head, _ := br.Peek(binarySniff)
	return bytes.IndexByte(head, 0) >= 0
}

// lineReader reads lines of any length with memory bounded by keep: it holds
// at most keep bytes of a line and discards the rest as it streams past.
// It reads at most budget bytes in all (errReadBudget past them) and, inside
// a line longer than the buffer, checks stop (the context) at every buffer.
type lineReader struct {
	br     *bufio.Reader
	keep   int
	buf    []byte
	budget int64
	read   int64
	stop   func() error
}

// errReadBudget is returned once a lineReader has read its budget.
var errReadBudget = errors.New("read budget spent")

// next reads one line without its "\n" or "\r\n". With want false the line
// is only skipped. cut reports bytes dropped past keep. ok is false at the end
// of the input.
func (lr *lineReader) next(want bool) (line []byte, cut, ok bool, err error) {
	lr.buf = lr.buf[:0]
	seen := 0
	for {
		chunk, err := lr.br.ReadSlice('\n')
		seen += len(chunk)
		lr.read += int64(len(chunk))
		if lr.read > lr.budget {
			return nil, false, false, errReadBudget
		}
		if want {
			body := chunk
			if err == nil {
				body = chunk[:len(chunk)-1]
			}
			if room := lr.keep - len(lr.buf); len(body) > room {
				body, cut = body[:room], true
			}
			lr.buf = append(lr.buf, body...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if err := lr.stop(); err != nil {
				return nil, false, false, err
			}
			continue
		case errors.Is(err, io.EOF):
			if seen == 0 {
				return nil, false, false, nil
			}
		case err != nil:
			return nil, false, false, err
		}
		return bytes.TrimSuffix(lr.buf, []byte("\r")), cut, true, nil
	}
}

// countLines counts the lines left in br: every "\n", plus a last line that
// has none. It reads at most budget bytes; when the file goes on, complete
// is false and n counts the newlines seen (a lower bound).
func countLines(br *bufio.Reader, budget int, stop func() error) (n int, complete bool, err error) {
	last, scanned := byte('\n'), 0
	for {
		if err := stop(); err != nil {
			return 0, false, err
		}
		chunk, err := br.Peek(readBufSize)
		if len(chunk) > 0 {
			n += bytes.Count(chunk, []byte{'\n'})
			last = chunk[len(chunk)-1]
			scanned += len(chunk)
			br.Discard(len(chunk))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return 0, false, err
		}
		if scanned >= budget {
			if _, err := br.Peek(1); errors.Is(err, io.EOF) {
				break // the budget ended with the file
			}
			return n, false, nil
		}
	}
	if last != '\n' {
		n++
	}
	return n, true, nil
}

// cutRunes makes b valid UTF-8 (invalid bytes become U+FFFD) and keeps at
// most max runes; cut reports whether it dropped any.
func cutRunes(b []byte, max int) (s string, cut bool) {
	s = strings.ToValidUTF8(string(b), "\uFFFD")
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	return s[:byteOffset(s, max)], true
}
