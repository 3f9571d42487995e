package rechunk_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
)

// The cuts of a real stream: the quirks' clean chat stream with CRLF line
// ends (the crlf quirk), whose text holds multi-byte characters.

// cleanStream is the quirks' clean chat-completions stream.
func cleanStream(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "quirk", "testdata", "clean.sse"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// crlf is the quirk that ends every line in CRLF.
func crlf(t *testing.T) quirk.Quirk {
	t.Helper()
	q, ok := quirk.ByName("crlf")
	if !ok {
		t.Fatal("no crlf quirk")
	}
	return q
}

// TestRechunkReader runs iotest.TestReader (reads of every size, Seek
// excluded) over every mode, and checks each Read stops at a piece end.
func TestRechunkReader(t *testing.T) {
	body := cleanStream(t)
	crlfBody, err := crlf(t).Apply(body, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []rechunk.Cutter{{Mode: rechunk.Whole}, {Mode: rechunk.Bytes}, {Mode: rechunk.Boundaries}, {Mode: rechunk.Random, Seed: 3}, {Mode: rechunk.Random, Seed: 4, Max: 1000}} {
		t.Run(r.Mode.String(), func(t *testing.T) {
			if err := iotest.TestReader(r.Reader(bytes.NewReader(crlfBody)), crlfBody); err != nil {
				t.Fatal(err)
			}
			rd := r.Reader(bytes.NewReader(crlfBody))
			buf := make([]byte, 1<<16)
			var got [][]byte
			for {
				n, err := rd.Read(buf)
				if n > 0 {
					got = append(got, bytes.Clone(buf[:n]))
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(r.Pieces(crlfBody), got); diff != "" {
				t.Errorf("reads are not the pieces (-want +got):\n%s", diff)
			}
			if !bytes.Equal(bytes.Join(got, nil), crlfBody) {
				t.Error("reads do not concatenate to the body")
			}
		})
	}
}

// TestRechunkBoundariesSplitEveryCRLFAndRune checks the property the mode
// exists for on a real stream: every CRLF and every multi-byte character
// of it straddles a read boundary.
func TestRechunkBoundariesSplitEveryCRLFAndRune(t *testing.T) {
	body, err := crlf(t).Apply(cleanStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	pieces := rechunk.Cutter{Mode: rechunk.Boundaries}.Pieces(body)
	ends := map[int]bool{}
	off := 0
	for _, p := range pieces {
		off += len(p)
		ends[off] = true
	}
	crlfs, runes := 0, 0
	for i := 0; i < len(body); {
		if bytes.HasPrefix(body[i:], []byte("\r\n")) {
			crlfs++
			if !ends[i+1] {
				t.Errorf("CRLF at %d is not split", i)
			}
			i += 2
			continue
		}
		_, size := utf8.DecodeRune(body[i:])
		if size > 1 {
			runes++
			for k := 1; k < size; k++ {
				if !ends[i+k] {
					t.Errorf("character at %d is not split after byte %d", i, k)
				}
			}
		}
		i += size
	}
	if crlfs != 30 || runes != 8 {
		t.Errorf("fixture has %d CRLFs and %d multi-byte characters, want 30 and 8", crlfs, runes)
	}
}
