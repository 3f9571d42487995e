package cassette

import "io"

// Lines of the fast decoder (vcryaml.go): the indentation of each line,
// blank lines, and how much of the input has been read.

// spaces skips spaces and returns how many.
func (d *vcrDecoder) spaces() int {
	n := 0
	for {
		p, _ := d.r.Peek(d.r.Buffered())
		if len(p) == 0 {
			if _, err := d.r.Peek(1); err != nil {
				return n
			}
			continue
		}
		i := 0
		for i < len(p) && p[i] == ' ' {
			i++
		}
		d.r.Discard(i)
		n += i
		if i < len(p) {
			return n
		}
	}
}

// endLine moves past the end of the current line, which must hold nothing
// more, to the next line that holds something.
func (d *vcrDecoder) endLine() error {
	b, err := d.r.ReadByte()
	if err == io.EOF {
		d.eof = true
		return nil
	}
	if err != nil || b != '\n' {
		return errDecline
	}
	return d.line()
}

// line moves to the next line that holds something, past lines of spaces
// only, and past its indentation. A tab or comment there is declined.
func (d *vcrDecoder) line() error {
	for {
		col := d.spaces()
		b, err := d.r.Peek(1)
		if err == io.EOF {
			d.eof = true
			return nil
		}
		if err != nil {
			return errDecline
		}
		if b[0] != '\n' {
			if b[0] == '\t' || b[0] == '#' {
				return errDecline
			}
			d.col = col
			return nil
		}
		d.r.Discard(1)
	}
}

// offset is where the decoder stands in the input.
func (d *vcrDecoder) offset() int64 {
	return d.src.n - int64(d.r.Buffered())
}

// countingReader counts the bytes read, so that the decoder knows how
// much input is left (vcrDecoder.put sizes a new arena from it).
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
