package cassette

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// Load and Decode first try a decoder for the one layout go-vcr v2.1.0
// writes (yaml.v3's encoding of a vcr.Cassette: block mappings and
// sequences, one-line plain and quoted scalars, literal block scalars for
// bodies with line breaks) and hand anything else to yaml.v3. The fast
// path exists for memory: yaml.v3 builds a body by appending to a growing
// buffer, keeps a node tree of it and copies it into the string, so a 52
// MiB body once cost 250 MiB. Here each answer is decoded once,
// straight into an arena sized from the input's length (a decoded scalar
// is never longer than its raw form, bar the \L and \P escapes, which grow
// the arena), and the answers are views of the arena. What the fast path
// accepts it decodes exactly as yaml.v3 does (vcryaml_test.go: every
// cassette of the repository, generated and mutated ones); what it does
// not know (comments, anchors, aliases, tags, flow collections other than
// {} and [], folded or multi-line scalars, nulls, duplicate or unknown
// keys, tabs in indentation, line breaks other than \n, control
// characters, invalid UTF-8) it declines with errDecline, and the caller
// starts again with yaml.v3, whose errors are the ones users see. A
// replay opened from a file has it leave the answers written as literal
// blocks or double-quoted in the input, checked and counted only
// (answer.go).

// errDecline: the input is not in the layout the fast decoder knows.
var errDecline = errors.New("not in go-vcr's own layout")

// vcrReadSize is the read buffer of the fast decoder: a structure line
// (a key and a one-line value) is read whole when it fits.
const vcrReadSize = 64 << 10

// decodeVCR decodes a go-vcr cassette from r, of size bytes (0 when not
// known), into c; errDecline (with c as it was) when the input is not in
// the layout it knows or cannot be read. When spans is not nil, an answer
// written as a literal block or double-quoted scalar is only checked and
// counted, not decoded: its Body stays empty and spans[n] says where it lies in the
// input (interaction n, from 0), for a replay to read it from there
// (answer.go).
func decodeVCR(r io.Reader, size int64, c *vcr.Cassette, spans map[int]*blockSpan) error {
	src := &countingReader{r: r}
	d := &vcrDecoder{r: bufio.NewReaderSize(src, vcrReadSize), src: src, spans: spans}
	if size > 0 && spans == nil {
		// the bodies will be held: one arena for them all
		d.size = size
		// no more than the bound: a larger cassette is refused anyway
		limit, err := maxBytes()
		if err != nil {
			limit = DefaultMaxBytes
		}
		d.arena = make([]byte, 0, min(size, limit))
	}
	version, interactions, err := d.document()
	if err != nil {
		clear(spans)
		return errDecline
	}
	c.Version, c.Interactions = version, interactions
	return nil
}

// A vcrDecoder reads one cassette. Between values it stands at the first
// byte after the indentation of a line that holds something (col is that
// indentation), or at the end of the input (eof).
type vcrDecoder struct {
	r   *bufio.Reader
	src *countingReader
	// size is the input's length when the arena is sized from it, else 0
	size int64
	col  int
	eof  bool
	// spans, when not nil, receives where each answer written as a
	// literal block lies (decodeVCR)
	spans map[int]*blockSpan
	// arena holds every decoded body; start is where the scalar being
	// decoded begins in it.
	arena []byte
	start int
}

// document reads the whole input: an optional "---" line, then the
// cassette's mapping at column 0, then nothing.
func (d *vcrDecoder) document() (version int, interactions []*vcr.Interaction, err error) {
	if p, _ := d.r.Peek(4); string(p) == "---\n" {
		d.r.Discard(4)
	}
	if err := d.line(); err != nil {
		return 0, nil, err
	}
	if d.eof || d.col != 0 {
		return 0, nil, errDecline // empty, or an indented top level
	}
	err = d.mapping(0, func(key string) error {
		switch key {
		case "version":
			version, err = d.intValue()
		case "interactions":
			interactions, err = d.interactions()
		default:
			err = errDecline
		}
		return err
	})
	if err != nil || !d.eof {
		return 0, nil, errDecline
	}
	return version, interactions, nil
}

// interactions reads the value of "interactions:": [] or a block sequence
// of interaction mappings.
func (d *vcrDecoder) interactions() ([]*vcr.Interaction, error) {
	if empty, err := d.emptyFlow('['); empty || err != nil {
		return []*vcr.Interaction{}, err
	}
	var out []*vcr.Interaction
	err := d.nested(func(ind int) error {
		return d.sequence(ind, func() error {
			i := new(vcr.Interaction)
			n := len(out)
			out = append(out, i)
			return d.mapping(d.col, func(key string) error {
				owner := d.col
				switch key {
				case "request":
					return d.nested(func(ind int) error {
						if ind <= owner {
							return errDecline
						}
						return d.mapping(ind, d.requestField(&i.Request))
					})
				case "response":
					return d.nested(func(ind int) error {
						if ind <= owner {
							return errDecline
						}
						return d.mapping(ind, d.responseField(&i.Response, n))
					})
				}
				return errDecline
			})
		})
	})
	return out, err
}

func (d *vcrDecoder) requestField(r *vcr.Request) func(string) error {
	owner := d.col
	return func(key string) (err error) {
		switch key {
		case "body":
			// copied out of the arena, so that the answers' arena is
			// garbage once a replay has served them (replay.go)
			r.Body, err = d.stringValue(owner)
		case "form":
			var m map[string][]string
			m, err = d.stringsMap(owner)
			r.Form = url.Values(m)
		case "headers":
			r.Headers, err = d.stringsMap(owner)
		case "url":
			r.URL, err = d.stringValue(owner)
		case "method":
			r.Method, err = d.stringValue(owner)
		default:
			err = errDecline
		}
		return err
	}
}

func (d *vcrDecoder) responseField(r *vcr.Response, n int) func(string) error {
	owner := d.col
	return func(key string) (err error) {
		switch key {
		case "body":
			var span *blockSpan
			r.Body, span, err = d.answerValue(owner)
			if span != nil {
				d.spans[n] = span
			}
		case "headers":
			r.Headers, err = d.stringsMap(owner)
		case "status":
			r.Status, err = d.stringValue(owner)
		case "code":
			r.Code, err = d.intValue()
		case "duration":
			r.Duration, err = d.durationValue()
		default:
			err = errDecline
		}
		return err
	}
}

// stringsMap reads the value of "headers:" or "form:", keyed at column
// owner: {} or a block mapping of names to lists of strings.
func (d *vcrDecoder) stringsMap(owner int) (http.Header, error) {
	if empty, err := d.emptyFlow('{'); empty || err != nil {
		return http.Header{}, err
	}
	m := http.Header{}
	err := d.nested(func(ind int) error {
		if ind <= owner {
			return errDecline
		}
		return d.mapping(ind, func(key string) error {
			list, err := d.stringList(ind)
			m[key] = list
			return err
		})
	})
	return m, err
}

// stringList reads a list of strings keyed at column owner: [] or a block
// sequence of one-line scalars.
func (d *vcrDecoder) stringList(owner int) ([]string, error) {
	if empty, err := d.emptyFlow('['); empty || err != nil {
		return []string{}, err
	}
	list := []string{}
	err := d.nested(func(ind int) error {
		if ind < owner {
			return errDecline
		}
		return d.sequence(ind, func() error {
			s, _, err := d.scalar(ind, false, false)
			list = append(list, s)
			return err
		})
	})
	return list, err
}

// mapping reads a block mapping whose keys are at column ind; value reads
// each key's value and leaves the decoder on the line after it. A key seen
// twice is declined (yaml.v3 refuses it).
func (d *vcrDecoder) mapping(ind int, value func(key string) error) error {
	var seen []string
	for !d.eof && d.col == ind {
		key, err := d.key()
		if err != nil {
			return err
		}
		if slices.Contains(seen, key) {
			return errDecline
		}
		seen = append(seen, key)
		if err := value(key); err != nil {
			return err
		}
	}
	if !d.eof && d.col > ind {
		return errDecline
	}
	return nil
}

// sequence reads a block sequence of one entry or more whose dashes are
// at column ind; item reads each entry, which starts on the dash's line at
// column d.col.
func (d *vcrDecoder) sequence(ind int, item func() error) error {
	if p, _ := d.r.Peek(1); len(p) == 0 || p[0] != '-' {
		return errDecline // a null value, or not a sequence
	}
	for !d.eof && d.col == ind {
		p, _ := d.r.Peek(2)
		if len(p) < 2 || p[0] != '-' {
			break // the next key of the mapping that holds the sequence
		}
		if p[1] != ' ' {
			return errDecline
		}
		d.r.Discard(1)
		d.col++
		d.col += d.spaces()
		if b, err := d.r.Peek(1); err != nil || b[0] == '\n' || b[0] == '\t' || b[0] == '#' {
			return errDecline
		}
		if err := item(); err != nil {
			return err
		}
	}
	if !d.eof && d.col > ind {
		return errDecline
	}
	return nil
}

// nested reads a value that starts on the next line: the rest of the
// key's line must be empty, and body reads what starts at the next line's
// indentation.
func (d *vcrDecoder) nested(body func(ind int) error) error {
	if err := d.endLine(); err != nil {
		return err
	}
	if d.eof {
		return errDecline // a null value
	}
	return body(d.col)
}

// emptyFlow reports a value " {}" or " []" (open names which), and moves
// past it to the next line.
func (d *vcrDecoder) emptyFlow(open byte) (bool, error) {
	p, _ := d.r.Peek(3)
	if len(p) < 3 || p[0] != ' ' || p[1] != open {
		return false, nil
	}
	if p[2] != open+2 { // '{'+2 == '}', '['+2 == ']'
		return false, errDecline
	}
	d.r.Discard(3)
	return true, d.endLine()
}

// key reads a mapping key and its colon: a plain name of letters, digits
// and _ . - (as header names and go-vcr's fields are) that yaml.v3 reads
// as that string; anything else (quoted keys, null, "<<") is declined.
func (d *vcrDecoder) key() (string, error) {
	p, _ := d.r.Peek(256)
	n := 0
	for n < len(p) && isKeyByte(p[n]) {
		n++
	}
	if n == 0 || p[0] == '-' || p[0] == '.' || n == len(p) || p[n] != ':' {
		return "", errDecline
	}
	key := string(p[:n])
	switch key {
	case "null", "Null", "NULL":
		return "", errDecline
	}
	d.r.Discard(n + 1)
	if b, err := d.r.Peek(1); err == nil && b[0] != ' ' && b[0] != '\n' {
		return "", errDecline
	}
	return key, nil
}

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}
