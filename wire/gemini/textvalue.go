package gemini

import (
	"strings"
	"unicode/utf8"
)

// textValue is a string argument as its pieces came. A big piece is kept as
// the string the event's decoding made, never copied; small pieces (a rune
// at a time is a real shape) are gathered in a tail that becomes one
// segment when it fills. No piece is ever copied twice over, whatever the
// number of pieces: a builder that appended every piece to one slice would
// copy the whole text each time the slice grew.
type textValue struct {
	done []string // the segments so far, in order
	tail []byte   // small pieces not yet a segment
	n    int      // bytes in all
}

const (
	// bigPiece is the size from which a piece is a segment of its own.
	bigPiece = 512
	// tailSegment is the size at which the tail becomes a segment.
	tailSegment = 64 << 10
)

func (t *textValue) add(piece string) {
	t.n += len(piece)
	if len(piece) >= bigPiece {
		t.flush()
		t.done = append(t.done, piece)
		return
	}
	t.tail = append(t.tail, piece...)
	if len(t.tail) >= tailSegment {
		t.flush()
	}
}

func (t *textValue) flush() {
	if len(t.tail) > 0 {
		t.done = append(t.done, string(t.tail))
		t.tail = t.tail[:0]
	}
}

// segments is the text in order. Each piece is a decoded JSON string, valid
// UTF-8, so no segment boundary falls inside a rune and each can be escaped
// on its own.
func (t *textValue) segments() []string {
	t.flush()
	return t.done
}

// writeJSONChars writes s's characters as they go between the quotes of a
// JSON string, the way encoding/json writes them with SetEscapeHTML(false),
// what Gemini itself sends in args: '"', '\\' and control characters
// escaped (\b \f \n \r \t by name, others as \u00XX), invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped (JavaScript reads them as line ends),
// everything else as it is. A fuzz test holds it to encoding/json.
func writeJSONChars(out *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	start := 0 // s[start:i] is waiting to be written as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			out.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				out.WriteByte('\\')
				out.WriteByte(c)
			case '\b':
				out.WriteString(`\b`)
			case '\f':
				out.WriteString(`\f`)
			case '\n':
				out.WriteString(`\n`)
			case '\r':
				out.WriteString(`\r`)
			case '\t':
				out.WriteString(`\t`)
			default:
				out.WriteString(`\u00`)
				out.WriteByte(hex[c>>4])
				out.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out.WriteString(s[start:i])
			out.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			out.WriteString(s[start:i])
			out.WriteString(`\u202`)
			out.WriteByte(hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	out.WriteString(s[start:])
}
