package cassette

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// doubleQuoted reads a one-line double-quoted scalar with yaml.v3's
// escapes through a quotedScalar (read). For an answer left in the input,
// where it lies is returned.
func (d *vcrDecoder) doubleQuoted(answer bool) (*blockSpan, error) {
	d.r.Discard(1)
	start := d.offset()
	size, sum, err := d.read(&quotedScalar{r: d.r}, answer)
	if err != nil || !answer || d.spans == nil || size == 0 {
		return nil, err
	}
	return &blockSpan{start: start, end: d.offset(), quoted: true, size: size, sum: sum}, nil
}

// A quotedScalar reads a one-line double-quoted scalar, from the byte
// after its opening quote, as yaml.v3's scanner reads one: Read returns
// its decoded bytes, then io.EOF past its closing quote; errDecline for a
// line break in it (folded over lines), an escape the fast path does not
// know, or text yaml.v3 does not take as it is (validText, checked a run
// between escapes at a time; a character cut by the reader's buffer is
// checked once whole). Like blockScalar, the decoder reads a scalar with it
// once, and a replay that keeps its answers in the file reads it again from
// there (answer.go).
type quotedScalar struct {
	r       *bufio.Reader
	checked int     // text at the reader's head checked and not yet copied
	esc     [4]byte // an escape's bytes, from escAt, escN of them left
	escAt   int
	escN    int
	done    bool
}

// Read writes the scalar's decoded bytes into p.
func (q *quotedScalar) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case q.escN > 0:
			k := copy(p[n:], q.esc[q.escAt:q.escAt+q.escN])
			n, q.escAt, q.escN = n+k, q.escAt+k, q.escN-k
		case q.checked > 0:
			k := min(len(p)-n, q.checked)
			chunk, _ := q.r.Peek(k)
			copy(p[n:], chunk)
			q.r.Discard(k)
			n, q.checked = n+k, q.checked-k
		case q.done:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		default:
			if err := q.next(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// next reads what comes next: the closing quote, an escape, or a run of
// text, which it checks.
func (q *quotedScalar) next() error {
	chunk, _ := q.r.Peek(max(q.r.Buffered(), 1))
	if len(chunk) == 0 {
		return errDecline // the input ends inside the scalar
	}
	switch chunk[0] {
	case '"':
		q.r.Discard(1)
		q.done = true
		return nil
	case '\n':
		return errDecline // folded over lines
	case '\\':
		p, _ := q.r.Peek(10)
		esc, n, used, ok := unescape(p)
		if !ok {
			return errDecline
		}
		q.esc, q.escAt, q.escN = esc, 0, n
		q.r.Discard(used)
		return nil
	}
	upto := bytes.IndexAny(chunk, "\"\\\n")
	if upto < 0 {
		upto = wholeRunes(chunk)
		if upto == 0 {
			// a character's bytes are still to come
			if more, _ := q.r.Peek(len(chunk) + 1); len(more) > len(chunk) {
				return nil
			}
			return errDecline
		}
	}
	if !validText(chunk[:upto], true) {
		return errDecline
	}
	q.checked = upto
	return nil
}

// unescape decodes the backslash escape p starts with (p holds what the
// reader has of it, up to 10 bytes): its bytes, how many, and how many
// bytes of p it takes; ok is false for an escaped line break or anything
// that is not one of yaml.v3's escapes.
func unescape(p []byte) (out [4]byte, n, used int, ok bool) {
	if len(p) < 2 {
		return out, 0, 0, false
	}
	var s string // the escape's bytes, when it takes two of p
	digits := 0
	switch p[1] {
	case '0':
		s = "\x00"
	case 'a':
		s = "\a"
	case 'b':
		s = "\b"
	case 't', '\t':
		s = "\t"
	case 'n':
		s = "\n"
	case 'v':
		s = "\v"
	case 'f':
		s = "\f"
	case 'r':
		s = "\r"
	case 'e':
		s = "\x1b"
	case ' ', '"', '\'', '\\':
		s = string(p[1:2])
	case 'N':
		s = "\u0085"
	case '_':
		s = "\u00a0"
	case 'L':
		s = "\u2028"
	case 'P':
		s = "\u2029"
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return out, 0, 0, false // an escaped line break, or not an escape
	}
	if s != "" {
		return out, copy(out[:], s), 2, true
	}
	if len(p) < 2+digits {
		return out, 0, 0, false
	}
	hex := string(p[2 : 2+digits])
	v, err := strconv.ParseUint(hex, 16, 32)
	if err != nil || strings.ContainsAny(hex, "+-_") || v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
		return out, 0, 0, false
	}
	return out, utf8.EncodeRune(out[:], rune(v)), 2 + digits, true
}
