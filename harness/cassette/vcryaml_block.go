package cassette

import (
	"bufio"
	"bytes"
	"hash/crc32"
	"io"
	"unicode/utf8"
)

// literal reads a literal block scalar (|, |-, |+, |2, |-2, |2+ ...) that
// is the value of a key at column owner: its header here, then its lines
// through a blockScalar (read). For an answer left in the input, where it
// lies is returned. It leaves the decoder on the line that ends the
// scalar.
func (d *vcrDecoder) literal(owner int, answer bool) (*blockSpan, error) {
	d.r.Discard(1)
	chomp, indent := byte(0), 0
	p, _ := d.r.Peek(2)
	n := 0
	for n < len(p) {
		switch c := p[n]; {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = c
		case c >= '1' && c <= '9' && indent == 0:
			indent = owner + int(c-'0')
		default:
			p = p[:n] // the header's end, or what follows it
			continue
		}
		n++
	}
	d.r.Discard(n)
	d.spaces()
	switch b, err := d.r.ReadByte(); {
	case err == io.EOF:
		d.eof = true
		return nil, nil
	case err != nil || b != '\n':
		return nil, errDecline // a comment, a 0 indicator, anything else
	}
	b := &blockScalar{r: d.r, owner: owner, indent: indent, chomp: chomp}
	start := d.offset()
	size, sum, err := d.read(b, answer)
	if err != nil {
		return nil, err
	}
	d.eof, d.col = b.eof, b.col
	if !answer || d.spans == nil || size == 0 {
		return nil, nil
	}
	end := d.offset()
	if !b.eof {
		end -= int64(b.col) // the spaces of the line that ends the scalar
	}
	return &blockSpan{start: start, end: end, indent: b.indent, chomp: chomp, size: size, sum: sum}, nil
}

// read reads a scalar's decoded bytes from r to its end: into the arena,
// or, for an answer when the decoder keeps answers in the input (d.spans),
// only checked, counted and summed in a scratch part of the arena, kept
// nowhere.
func (d *vcrDecoder) read(r io.Reader, answer bool) (size int64, sum uint32, err error) {
	for {
		var n int
		if answer && d.spans != nil {
			d.room(4096)
			free := d.arena[len(d.arena):cap(d.arena)]
			n, err = r.Read(free)
			sum = crc32.Update(sum, answerSum, free[:n])
		} else {
			d.room(1)
			n, err = r.Read(d.arena[len(d.arena):cap(d.arena)])
			d.arena = d.arena[:len(d.arena)+n]
		}
		size += int64(n)
		if err == io.EOF {
			return size, sum, nil
		}
		if err != nil {
			return 0, 0, err
		}
	}
}

// A blockScalar reads the lines of one literal block scalar, from the line
// after its header, as yaml.v3's scanner reads them: the indentation is the
// indicator's (owner plus the digit) or the first line's with text (at
// least owner+1, and at least any blank line's before it), lines of spaces
// only are line breaks, and the chomping indicator says what becomes of
// the final line breaks (- none, + all, else one). Read returns the decoded
// bytes, then io.EOF at the line that ends the scalar (col is its
// indentation) or at the input's end (eof); errDecline for what yaml.v3
// reads otherwise (a tab in the indentation, text yaml.v3 does not take as
// it is: validText). The decoder reads a scalar with it once; a replay that
// keeps its answers in the file reads it again from there (answer.go),
// with the indentation found the first time.
type blockScalar struct {
	r      *bufio.Reader
	owner  int
	indent int // 0 until the first line with text says it
	chomp  byte

	trailing int  // empty lines since the last line with text
	more     bool // the last line with text ended with a line break
	inLine   bool // Read stands in a line with text
	checked  int  // bytes of that line at the reader's head checked and not yet copied
	stops    bool // its line break follows them
	pending  int  // line breaks to write before anything else
	done     bool // the end is reached: the pending line breaks are the last
	eof      bool // the input ended
	col      int  // the indentation of the line that ended the scalar
}

// Read writes the scalar's decoded bytes into p.
func (b *blockScalar) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case b.pending > 0:
			k := min(b.pending, len(p)-n)
			for i := range k {
				p[n+i] = '\n'
			}
			n += k
			b.pending -= k
		case b.done:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		case !b.inLine:
			if err := b.nextLine(); err != nil {
				return n, err
			}
		default:
			k, err := b.text(p[n:])
			n += k
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// nextLine moves past the line breaks to the next line with text, or to
// the scalar's end.
func (b *blockScalar) nextLine() error {
	col, err := b.breaks()
	if err != nil {
		return err
	}
	if b.eof || col != b.indent {
		b.col = col
		b.end()
		return nil
	}
	if b.more {
		b.pending++
	}
	b.pending += b.trailing
	b.trailing, b.inLine = 0, true
	return nil
}

// end chomps: the last line break (unless -) and the empty lines after it
// (+ only) are the scalar's last bytes.
func (b *blockScalar) end() {
	if b.chomp != '-' && b.more {
		b.pending++
	}
	if b.chomp == '+' {
		b.pending += b.trailing
	}
	b.trailing, b.done = 0, true
}

// text copies the line's text into p, up to its line break (which it
// moves past) or as much as fits. It checks the text a part at a time
// before copying it: up to the line break, or the whole characters the
// reader holds (a character cut by the reader's buffer is checked once
// whole); checked is what is left of that part, and stops says whether
// the line break follows it.
func (b *blockScalar) text(p []byte) (int, error) {
	if b.checked == 0 {
		chunk, err := b.r.Peek(max(b.r.Buffered(), 1))
		if len(chunk) == 0 {
			if err != io.EOF {
				return 0, errDecline
			}
			// the input ends the line
			b.eof, b.more, b.inLine = true, false, false
			b.end()
			return 0, nil
		}
		stop := bytes.IndexByte(chunk, '\n')
		if stop == 0 {
			b.r.Discard(1)
			b.more, b.inLine = true, false
			return 0, nil
		}
		upto := stop
		if stop < 0 {
			upto = wholeRunes(chunk)
			if upto == 0 {
				// a character's bytes are still to come
				more, err := b.r.Peek(len(chunk) + 1)
				if len(more) > len(chunk) {
					return 0, nil
				}
				if err != io.EOF {
					return 0, errDecline
				}
				upto = len(chunk) // the input ends inside it: checked as it is
			}
		}
		if !validText(chunk[:upto], true) {
			return 0, errDecline
		}
		b.checked, b.stops = upto, upto == stop
	}
	k := min(len(p), b.checked)
	chunk, _ := b.r.Peek(k)
	copy(p, chunk)
	b.r.Discard(k)
	b.checked -= k
	if b.checked == 0 && b.stops {
		b.r.Discard(1)
		b.more, b.inLine = true, false
	}
	return k, nil
}

// wholeRunes is the length of p without the first bytes of a character
// that p cuts (a lead byte and fewer continuation bytes than it needs).
func wholeRunes(p []byte) int {
	for i := len(p) - 1; i >= max(0, len(p)-utf8.UTFMax+1); i-- {
		c := p[i]
		if c < utf8.RuneSelf {
			return len(p)
		}
		if c >= 0xc0 { // a lead byte
			need := 2
			if c >= 0xf0 {
				need = 4
			} else if c >= 0xe0 {
				need = 3
			}
			if len(p)-i < need {
				return i
			}
			return len(p)
		}
	}
	return len(p)
}

// breaks moves past the indentation of the next line of the scalar and past
// the empty lines on the way (counted in trailing), as yaml.v3's scanner
// does: spaces are skipped up to the indentation (all of them while it is
// not known), a tab among them is declined, and an unknown indentation
// becomes that of the first line with text. It returns the column it
// stopped at.
func (b *blockScalar) breaks() (int, error) {
	most := 0
	col := 0
	for {
		col = 0
		for b.indent == 0 || col < b.indent {
			p, _ := b.r.Peek(1)
			if len(p) == 0 || p[0] != ' ' {
				break
			}
			// skip a run of spaces at once, up to the indentation
			p, _ = b.r.Peek(b.r.Buffered())
			n := 0
			for n < len(p) && p[n] == ' ' && (b.indent == 0 || col+n < b.indent) {
				n++
			}
			b.r.Discard(n)
			col += n
		}
		most = max(most, col)
		p, err := b.r.Peek(1)
		if err == io.EOF {
			b.eof = true
			break
		}
		if err != nil {
			return 0, errDecline
		}
		if (b.indent == 0 || col < b.indent) && p[0] == '\t' {
			return 0, errDecline
		}
		if p[0] != '\n' {
			break
		}
		b.r.Discard(1)
		b.trailing++
	}
	if b.indent == 0 {
		b.indent = max(most, b.owner+1, 1)
	}
	return col, nil
}
