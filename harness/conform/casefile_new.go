package conform

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/sse"
	"github.com/agentvcr/agentvcr/wire"
	"github.com/rogpeppe/go-internal/txtar"
)

// CaseFileFields are the fields agentvcr case new writes into a case file
// of a captured turn.
type CaseFileFields struct {
	ID, API, Doc, Seen string
}

// NewCaseFile returns the text of the case file at path for a captured
// stream, and the case it is, read back by the same reader conform -cases
// uses: a file NewCaseFile returns passes it. The stream is kept byte for
// byte (a last newline added when it has none); a stream of another format
// than fields.API, one with no call, or any credential shape in the fields
// or the stream is refused as the reader refuses it, before anything is
// written.
func NewCaseFile(path string, fields CaseFileFields, stream []byte) ([]byte, CaseFile, error) {
	f, err := FormatByName(fields.API)
	if err != nil {
		return nil, CaseFile{}, fmt.Errorf("%w: %v", ErrCaseFile, err)
	}
	var comment strings.Builder
	fmt.Fprintf(&comment, "# made by agentvcr case new from a captured stream: read it before you commit it\n")
	for _, kv := range [][2]string{{"id", fields.ID}, {"api", f.Name}, {"doc", fields.Doc}, {"seen", fields.Seen}} {
		fmt.Fprintf(&comment, "%s: %s\n", kv[0], kv[1])
	}
	if !bytes.HasSuffix(stream, []byte("\n")) {
		stream = append(bytes.Clone(stream), '\n')
	}
	data := txtar.Format(&txtar.Archive{Comment: []byte(comment.String()), Files: []txtar.File{{Name: CapturedTurnFile, Data: stream}}})
	cf, err := parseCaseFileData(path, data)
	if err != nil {
		return nil, CaseFile{}, err
	}
	c, err := cf.captured(f)
	if err != nil {
		return nil, CaseFile{}, err
	}
	if !bytes.Equal(cf.stream, stream) {
		return nil, CaseFile{}, fmt.Errorf("%w %s: the stream holds a line that reads as a txtar section (-- NAME --): it cannot be kept in a case file as it is", ErrCaseFile, path)
	}
	return data, CaseFile{Path: path, API: f.Name, Case: c}, nil
}

// CassetteTurn returns the streamed answer of the n-th exchange of the
// cassette at path (from 1), as record or proxy -o saved it, or, for n 0,
// of the first exchange whose stream our merger refuses or warns about
// (what a user reproducing a bug captured); and the exchange's number.
func CassetteTurn(path string, n int) ([]byte, int, error) {
	c, err := cassette.DecodeFile(path)
	if err != nil {
		return nil, 0, err
	}
	if n > len(c.Interactions) {
		return nil, 0, fmt.Errorf("-turn %d: %s holds %d exchange(s)", n, path, len(c.Interactions))
	}
	if n > 0 {
		return []byte(c.Interactions[n-1].Response.Body), n, nil
	}
	for i, in := range c.Interactions {
		body := []byte(in.Response.Body)
		if !sse.IsEventStream(in.Response.Headers.Get("Content-Type")) {
			continue
		}
		t, err := wire.Detect(body).Merge(bytes.NewReader(body))
		if err != nil || len(t.Warnings) > 0 {
			return body, i + 1, nil
		}
	}
	return nil, 0, fmt.Errorf("%s: our merger takes every streamed answer as it is, with no warning: name the exchange with -turn N", path)
}
