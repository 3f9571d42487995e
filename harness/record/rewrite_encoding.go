package record

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrUnrewritableEncoding: an answer to rewrite came in a Content-Encoding
// the proxy cannot decode (br, zstd, any but gzip and deflate: the
// standard library decodes those two only), so it passes as it came.
var ErrUnrewritableEncoding = errors.New("the proxy cannot decode this Content-Encoding, so it cannot rewrite the answer")

// An answerCodec decodes an answer in one Content-Encoding for a Rewriter
// and encodes what the Rewriter sends in the same one, so the client gets
// the encoding its headers say.
type answerCodec struct {
	coding string // "gzip" or "deflate"
}

// codecOf is the codec of a Content-Encoding header: nil for none or
// identity (the answer is rewritten as it comes), an error wrapping
// ErrUnrewritableEncoding for an encoding the proxy cannot decode or for
// several codings one after the other.
func codecOf(contentEncoding string) (*answerCodec, error) {
	var codings []string
	for _, c := range strings.Split(contentEncoding, ",") {
		if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
			codings = append(codings, c)
		}
	}
	switch {
	case len(codings) == 0:
		return nil, nil
	case len(codings) > 1:
		return nil, fmt.Errorf("Content-Encoding %q: %w", contentEncoding, ErrUnrewritableEncoding)
	case codings[0] == "gzip", codings[0] == "x-gzip":
		return &answerCodec{coding: "gzip"}, nil
	case codings[0] == "deflate":
		return &answerCodec{coding: "deflate"}, nil
	}
	return nil, fmt.Errorf("Content-Encoding %q: %w", codings[0], ErrUnrewritableEncoding)
}

// open starts decoding body, and returns the decoded answer and the
// encoder of what is sent in its place. Deflate is the zlib format (RFC
// 9110) or, as some servers send it, raw deflate: the answer is encoded
// again in the form it came in.
func (c *answerCodec) open(body io.Reader) (io.Reader, *answerEncoder, error) {
	e := &answerEncoder{}
	if c.coding == "gzip" {
		r, err := gzip.NewReader(body)
		if err != nil {
			return nil, nil, fmt.Errorf("Content-Encoding gzip: %w", err)
		}
		e.w = gzip.NewWriter(&e.out)
		return r, e, nil
	}
	br := bufio.NewReader(body)
	if head, err := br.Peek(2); err == nil && isZlibHeader(head) {
		r, err := zlib.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("Content-Encoding deflate: %w", err)
		}
		e.w = zlib.NewWriter(&e.out)
		return r, e, nil
	}
	e.w, _ = flate.NewWriter(&e.out, flate.DefaultCompression) // the level is valid
	return flate.NewReader(br), e, nil
}

// isZlibHeader reports whether two bytes begin a zlib stream (RFC 1950):
// the deflate method, and a header that is a multiple of 31.
func isZlibHeader(b []byte) bool {
	return b[0]&0x0f == 8 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0
}

// An answerEncoder encodes what a Rewriter sends, flushed after each piece
// so that the client can decode every event as soon as it is sent.
type answerEncoder struct {
	w interface {
		io.WriteCloser
		Flush() error
	}
	out bytes.Buffer
}

// encode returns b encoded and flushed. Its bytes are used before the
// next call.
func (e *answerEncoder) encode(b []byte, flush bool) []byte {
	if len(b) == 0 && !flush {
		return nil
	}
	e.out.Reset()
	e.w.Write(b) // into a bytes.Buffer: no error
	e.w.Flush()
	return e.out.Bytes()
}

// close returns the end of the encoded answer.
func (e *answerEncoder) close() []byte {
	e.out.Reset()
	e.w.Close()
	return e.out.Bytes()
}
