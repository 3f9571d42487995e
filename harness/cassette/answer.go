package cassette

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// A replay opened from a file (Open) leaves in the file every answer
// written as a literal block scalar or a double-quoted one, which is how
// go-vcr writes a stream's body (quoted when its events end in CRLF): the
// decoder checks and counts it (vcryaml_block.go, vcryaml_quoted.go) and
// remembers where it lies, and the replay reads it from there as the
// caller reads the response, through the same blockScalar or
// quotedScalar, so the bytes are the decoded ones. A replay then holds the
// requests, never an answer whole (a 54 MB answer once sat in memory
// while the agent held the 21 MB of text it merged from it).
//
// The file stays open from the decode to Stop, so a file removed or
// renamed over in the meantime still serves what was decoded. One changed
// in place is caught: its size or modification time differ when an answer
// is served, or, as it is read, its bytes no longer read as the same block
// (the indentation, the text yaml.v3 would take) or no longer decode to
// the same answer (its length, and at its end, a CRC-32C of it). Each is
// an error wrapping ErrBadCassette; a change found at the answer's end
// fails its last read, so a caller that reads to the end never takes
// other bytes for the answer.

// A blockSpan is where an answer left in the input lies and how it reads:
// a literal block scalar's lines from the one after the header (start) to
// the line that ends it or the input's end (end), with the indentation
// found when it was decoded and its chomping indicator; or a
// double-quoted scalar (quoted) from the byte after its opening quote to
// the byte after its closing one.
type blockSpan struct {
	start, end int64
	quoted     bool
	indent     int
	chomp      byte
	size       int64  // its decoded length
	sum        uint32 // and the CRC-32C of its decoded bytes
}

// answerSum is the table of the CRC that answers are checked with.
var answerSum = crc32.MakeTable(crc32.Castagnoli)

// fileAnswers are the answers a replay reads from its open cassette file:
// spans[n] is interaction n's (from 0).
type fileAnswers struct {
	f     *os.File
	name  string // the file, for errors
	size  int64  // the file's size and modification time when decoded
	mod   time.Time
	spans map[int]*blockSpan
}

// open returns a reader of interaction n's answer, or an error when the
// file is no longer the one decoded.
func (a *fileAnswers) open(n int) (io.Reader, int64, error) {
	span := a.spans[n]
	st, err := a.f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("cassette %s: %w", a.name, err)
	}
	if st.Size() != a.size || !st.ModTime().Equal(a.mod) {
		return nil, 0, answerChanged(a.name, n, "its size or modification time differ")
	}
	return readAnswer(a.f, a.name, n, span), span.size, nil
}

// readAnswer reads answer n (from 0), which lies in src where span says;
// name is the file, for errors.
func readAnswer(src io.ReaderAt, name string, n int, span *blockSpan) io.Reader {
	sr := &sectionReader{r: io.NewSectionReader(src, span.start, span.end-span.start)}
	br := bufio.NewReaderSize(sr, int(min(vcrReadSize, span.end-span.start)))
	var scalar io.Reader = &blockScalar{r: br, indent: span.indent, chomp: span.chomp}
	if span.quoted {
		scalar = &quotedScalar{r: br}
	}
	return &answerReader{name: name, n: n, span: span, scalar: scalar, r: br, src: sr}
}

// answerChanged is the error of answer n, which the file no longer holds
// as it was decoded.
func answerChanged(name string, n int, why string) error {
	return fmt.Errorf("cassette %s: %w: the file changed after it was loaded (%s), so answer %d cannot be read from it: replay it again",
		name, ErrBadCassette, why, n+1)
}

// close closes the file; nil may be closed.
func (a *fileAnswers) close() error {
	if a == nil {
		return nil
	}
	return a.f.Close()
}

// An answerReader reads one answer from the file, and fails when the
// bytes there no longer decode to an answer of the recorded length.
type answerReader struct {
	name string
	n    int
	span *blockSpan
	// scalar reads the answer from r, the bytes of the span in src
	scalar io.Reader
	r      *bufio.Reader
	src    *sectionReader
	read   int64
	sum    uint32
}

func (r *answerReader) Read(p []byte) (int, error) {
	n, err := r.scalar.Read(p)
	r.read += int64(n)
	r.sum = crc32.Update(r.sum, answerSum, p[:n])
	switch {
	case r.src.err != nil:
		return n, fmt.Errorf("cassette %s: %w", r.name, r.src.err)
	case errors.Is(err, errDecline):
		return n, answerChanged(r.name, r.n, "its text no longer reads as the same block")
	case r.read > r.span.size, err == io.EOF && (r.read != r.span.size || r.sum != r.span.sum || !r.atEnd()):
		return n, answerChanged(r.name, r.n, "the answer it holds is not the one decoded")
	}
	return n, err
}

// atEnd reports whether the scalar ended where the span does.
func (r *answerReader) atEnd() bool {
	_, err := r.r.Peek(1)
	return err == io.EOF
}

// A sectionReader is a part of the file that keeps its first read error
// other than io.EOF (the blockScalar sees every error as the input's end
// or a decline).
type sectionReader struct {
	r   *io.SectionReader
	err error
}

func (s *sectionReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}
