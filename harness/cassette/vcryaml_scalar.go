package cassette

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// The scalars of the fast decoder (vcryaml.go), read as yaml.v3's scanner
// reads them: plain and quoted scalars on one line, literal block scalars
// (|, with chomping and indentation indicators) as mapping values.

// stringValue reads a string value after "key:" of a mapping keyed at
// column owner: a copy, never a view of the arena.
func (d *vcrDecoder) stringValue(owner int) (string, error) {
	s, _, err := d.value(owner, false)
	return s, err
}

// answerValue reads a response body after "key:" of a mapping keyed at
// column owner: a view of the arena, or, for a literal block when the
// decoder keeps answers in the input (d.spans), "" and where it lies.
func (d *vcrDecoder) answerValue(owner int) (string, *blockSpan, error) {
	return d.value(owner, true)
}

func (d *vcrDecoder) value(owner int, answer bool) (string, *blockSpan, error) {
	if b, err := d.r.ReadByte(); err != nil || b != ' ' {
		return "", nil, errDecline // a null value, or "key:value"
	}
	d.spaces()
	return d.scalar(owner, answer, true)
}

// scalar reads the scalar that starts here; a literal block scalar only
// when block is true. It leaves the decoder on the next line.
func (d *vcrDecoder) scalar(owner int, answer, block bool) (string, *blockSpan, error) {
	d.start = len(d.arena)
	p, err := d.r.Peek(1)
	if err != nil {
		return "", nil, errDecline
	}
	switch p[0] {
	case '\'':
		err = d.singleQuoted()
	case '"':
		span, err := d.doubleQuoted(answer)
		if err != nil {
			return "", nil, err
		}
		return d.take(answer), span, d.endLine()
	case '|':
		if !block {
			return "", nil, errDecline
		}
		span, err := d.literal(owner, answer)
		if err != nil {
			return "", nil, err
		}
		return d.take(answer), span, nil
	default:
		err = d.plain()
	}
	if err != nil {
		return "", nil, err
	}
	s := d.take(answer)
	return s, nil, d.endLine()
}

// take returns the scalar just decoded: a view of the arena for an
// answer, else a copy, and the arena's bytes are used again.
func (d *vcrDecoder) take(answer bool) string {
	b := d.arena[d.start:]
	switch {
	case len(b) == 0:
		return ""
	case answer:
		// The arena is only appended to: these bytes never change.
		return unsafe.String(&b[0], len(b))
	}
	s := string(b)
	d.arena = d.arena[:d.start]
	return s
}

// put appends decoded bytes to the arena.
func (d *vcrDecoder) put(b ...byte) {
	d.room(len(b))
	d.arena = append(d.arena, b...)
}

// room makes room for n more bytes in the arena. When they do not fit,
// the scalar begun so far moves to a new arena with room for the rest of
// the input (when its size is known); the old one stays with the bodies
// that point into it.
func (d *vcrDecoder) room(n int) {
	if len(d.arena)+n <= cap(d.arena) {
		return
	}
	part := d.arena[d.start:]
	extra := max(n, 4096, len(part))
	if d.size > 0 {
		left := d.size - d.offset()
		extra = max(n, 4096, len(part)/2, int(min(left, 1<<40)))
	}
	arena := make([]byte, len(part), len(part)+extra)
	copy(arena, part)
	d.arena, d.start = arena, 0
}

// plain reads a one-line plain scalar that yaml.v3 reads as a string with
// its text: no indicator first (but -x, ?x, :x), no ": " or " #" inside,
// no tab, no trailing space or colon, not null.
func (d *vcrDecoder) plain() error {
	p, _ := d.r.Peek(vcrReadSize)
	n := bytes.IndexByte(p, '\n')
	if n < 0 {
		if len(p) == vcrReadSize {
			return errDecline
		}
		n = len(p)
	}
	v := p[:n]
	// - ? : may start a plain scalar when a character other than a space
	// follows (-x, :x); the other indicators never.
	if len(v) == 0 || strings.IndexByte(",[]{}#&*!|>'\"%@`", v[0]) >= 0 ||
		strings.IndexByte("-?:", v[0]) >= 0 && (len(v) == 1 || v[1] == ' ') ||
		bytes.IndexByte(v, '\t') >= 0 || bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) ||
		v[len(v)-1] == ' ' || v[len(v)-1] == ':' || !validText(v, false) {
		return errDecline
	}
	switch string(v) {
	case "null", "Null", "NULL", "~":
		return errDecline
	}
	d.put(v...)
	d.r.Discard(n)
	return nil
}

// plainValue reads a plain scalar after "key:" and moves to the next line.
func (d *vcrDecoder) plainValue() (string, error) {
	if b, err := d.r.ReadByte(); err != nil || b != ' ' {
		return "", errDecline
	}
	d.spaces()
	d.start = len(d.arena)
	if err := d.plain(); err != nil {
		return "", err
	}
	return d.take(false), d.endLine()
}

// intValue reads a whole number written in decimal, as go-vcr writes
// version and code; yaml.v3's other spellings (0x1F, 0o17, 1_000, +5) are
// declined.
func (d *vcrDecoder) intValue() (int, error) {
	v, err := d.plainValue()
	if err != nil || len(v) > 9 || v != "0" && v[0] == '0' {
		return 0, errDecline
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || v[0] == '+' {
		return 0, errDecline
	}
	return n, nil
}

// durationValue reads a duration as go-vcr writes it (0s, 1.5s, 2m3s):
// a plain scalar that yaml.v3 resolves to a string (a digit first, a unit
// last, no e, x, b, o or -) and time.ParseDuration reads.
func (d *vcrDecoder) durationValue() (time.Duration, error) {
	v, err := d.plainValue()
	if err != nil || v[0] < '0' || v[0] > '9' || !strings.ContainsAny(v[len(v)-1:], "smh") ||
		strings.Trim(v, "0123456789.nsuµμmh") != "" {
		return 0, errDecline
	}
	t, err := time.ParseDuration(v)
	if err != nil {
		return 0, errDecline
	}
	return t, nil
}

// copyUntil puts the input up to the first byte of stops into the arena
// and returns that byte, which is left unread.
func (d *vcrDecoder) copyUntil(stops string) (byte, error) {
	for {
		p, err := d.buffered()
		if err != nil {
			return 0, err
		}
		i := bytes.IndexAny(p, stops)
		if i < 0 {
			d.put(p...)
			d.r.Discard(len(p))
			continue
		}
		stop := p[i]
		d.put(p[:i]...)
		d.r.Discard(i)
		return stop, nil
	}
}

// singleQuoted reads a one-line single-quoted scalar (a quote doubled is
// one quote).
func (d *vcrDecoder) singleQuoted() error {
	d.r.Discard(1)
	for {
		stop, err := d.copyUntil("'\n")
		if err != nil {
			return err
		}
		if stop == '\n' {
			return errDecline // folded over lines
		}
		if q, _ := d.r.Peek(2); len(q) == 2 && q[1] == '\'' {
			d.put('\'')
			d.r.Discard(2)
			continue
		}
		d.r.Discard(1)
		if !validText(d.arena[d.start:], true) {
			return errDecline
		}
		return nil
	}
}

// buffered returns the bytes read but not consumed, reading more when there
// are none; the end of the input inside a scalar is declined.
func (d *vcrDecoder) buffered() ([]byte, error) {
	if d.r.Buffered() == 0 {
		if _, err := d.r.Peek(1); err != nil {
			return nil, errDecline
		}
	}
	p, _ := d.r.Peek(d.r.Buffered())
	return p, nil
}

// validText reports text yaml.v3's reader takes and its scanner reads as
// characters of one line: valid UTF-8 without control characters (a tab
// when tabs is true), U+0085, U+2028, U+2029 (line breaks to yaml.v3),
// U+FEFF or U+FFFE and U+FFFF.
func validText(b []byte, tabs bool) bool {
	for i := 0; i < len(b); {
		// eight bytes at once while they are all printable ASCII (no byte
		// under 0x20, none over 0x7e)
		if i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			const ones, highs = 0x0101010101010101, 0x8080808080808080
			if (w-0x20*ones)&^w&highs == 0 && ((w+ones)|w)&highs == 0 {
				i += 8
				continue
			}
		}
		c := b[i]
		if c >= 0x20 && c < 0x7f || c == '\t' && tabs {
			i++
			continue
		}
		if c < 0x80 {
			return false
		}
		// three bytes led by E1-EC or EE (most of CJK) are a valid
		// character when both others are continuation bytes; U+2028 and
		// U+2029 (E2 80 A8, E2 80 A9) are line breaks
		if (c >= 0xe1 && c <= 0xec || c == 0xee) && i+2 < len(b) && b[i+1]&0xc0 == 0x80 && b[i+2]&0xc0 == 0x80 &&
			!(c == 0xe2 && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9)) {
			i += 3
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		i += n
	}
	return true
}
