package cassette

import (
	"bytes"
	"io"
)

// literal reads a literal block scalar (|, |-, |+, |2, |-2, |2+ ...) that
// is the value of a key at column owner, as yaml.v3's scanner reads one:
// the indentation is the indicator's (owner plus the digit) or the first
// line's with text (at least owner+1, and at least any blank line's before
// it), lines of spaces only are line breaks, and the chomping indicator
// says what becomes of the final line breaks (- none, + all, else one). It
// leaves the decoder on the line that ends the scalar.
func (d *vcrDecoder) literal(owner int) error {
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
		return nil
	case err != nil || b != '\n':
		return errDecline // a comment, a 0 indicator, anything else
	}
	trailing, more := 0, false // the empty lines so far; whether the last line with text ended with a line break
	col, err := d.blockBreaks(&indent, &trailing, owner)
	for err == nil && !d.eof && col == indent {
		if more {
			d.put('\n')
		}
		for ; trailing > 0; trailing-- {
			d.put('\n')
		}
		line := len(d.arena) - d.start
		for {
			p, err := d.buffered()
			if err != nil {
				d.eof, more = true, false
				break
			}
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				d.put(p...)
				d.r.Discard(len(p))
				continue
			}
			d.put(p[:i]...)
			d.r.Discard(i + 1)
			more = true
			break
		}
		if !validText(d.arena[d.start+line:], true) {
			return errDecline
		}
		if d.eof {
			break
		}
		col, err = d.blockBreaks(&indent, &trailing, owner)
	}
	if err != nil {
		return err
	}
	if chomp != '-' && more {
		d.put('\n')
	}
	if chomp == '+' {
		for ; trailing > 0; trailing-- {
			d.put('\n')
		}
	}
	d.col = col
	return nil
}

// blockBreaks moves past the indentation of the next line of a block
// scalar and past the empty lines on the way (counted in trailing), as
// yaml.v3's scanner does: spaces are skipped up to the indentation (all of
// them while it is not known, 0), a tab among them is declined, and an
// unknown indentation becomes that of the first line with text. It returns
// the column it stopped at.
func (d *vcrDecoder) blockBreaks(indent, trailing *int, owner int) (int, error) {
	most := 0
	col := 0
	for {
		col = 0
		for *indent == 0 || col < *indent {
			p, _ := d.r.Peek(1)
			if len(p) == 0 || p[0] != ' ' {
				break
			}
			// skip a run of spaces at once, up to the indentation
			p, _ = d.r.Peek(d.r.Buffered())
			n := 0
			for n < len(p) && p[n] == ' ' && (*indent == 0 || col+n < *indent) {
				n++
			}
			d.r.Discard(n)
			col += n
		}
		most = max(most, col)
		p, err := d.r.Peek(1)
		if err == io.EOF {
			d.eof = true
			break
		}
		if err != nil {
			return 0, errDecline
		}
		if (*indent == 0 || col < *indent) && p[0] == '\t' {
			return 0, errDecline
		}
		if p[0] != '\n' {
			break
		}
		d.r.Discard(1)
		*trailing++
	}
	if *indent == 0 {
		*indent = max(most, owner+1, 1)
	}
	return col, nil
}
