package sse

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// Events handed out as slices of the read buffer stay intact when the buffer
// moves its bytes to the front or grows: a stream several buffers long, with
// events of one and of several data lines and every line end, read whole, in
// random pieces and byte by byte, gives every event.
func TestSSEReaderAcrossBufferMoves(t *testing.T) {
	var in strings.Builder
	var want []wantEvent
	eols := []string{"\n", "\r\n", "\r"}
	for i := 0; in.Len() < 5*sseBufferSize; i++ {
		eol := eols[i%len(eols)]
		data := fmt.Sprintf("event %d %s", i, strings.Repeat("x", i%211))
		switch i % 5 {
		case 0: // two data lines
			fmt.Fprintf(&in, "data: %s%sdata: second%s%s", data, eol, eol, eol)
			data += "\nsecond"
		case 1: // a comment between the data and the blank line
			fmt.Fprintf(&in, "data: %s%s: note%s%s", data, eol, eol, eol)
		default:
			fmt.Fprintf(&in, "data: %s%s%s", data, eol, eol)
		}
		want = append(want, wantEvent{Data: data})
	}
	big := strings.Repeat("y", 2*sseBufferSize+5) // grows the buffer mid-stream
	in.WriteString("data: " + big + "\n\ndata: last\n\n")
	want = append(want, wantEvent{Data: big}, wantEvent{Data: "last"})
	readers := []struct {
		name string
		r    io.Reader
	}{
		{"whole", strings.NewReader(in.String())},
		{"random pieces", streamtest.NewPieceReader([]byte(in.String()), 11, 4000)},
		{"one byte", iotest.OneByteReader(strings.NewReader(in.String()))},
	}
	for _, rd := range readers {
		got, err := readEvents(t, rd.r)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", rd.name, diff)
		}
	}
}

// zeroReader returns nothing and no error, forever.
type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestSSEReaderNoProgress(t *testing.T) {
	_, err := readEvents(t, io.MultiReader(strings.NewReader("data: a\n\n"), zeroReader{}))
	if err != io.ErrNoProgress {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
}
