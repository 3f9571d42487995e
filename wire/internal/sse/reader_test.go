package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

type wantEvent struct {
	Error bool
	Data  string
}

func readEvents(t *testing.T, r io.Reader) ([]wantEvent, error) {
	t.Helper()
	sr := NewReader(r)
	var got []wantEvent
	for {
		ev, err := sr.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, wantEvent{Error: ev.Error, Data: string(ev.Data)})
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   []wantEvent
	}{
		{"LF line ends", "data: a\n\ndata: b\n\n", []wantEvent{{Data: "a"}, {Data: "b"}}},
		{"CRLF line ends", "data: a\r\n\r\ndata: b\r\n\r\n", []wantEvent{{Data: "a"}, {Data: "b"}}},
		{"bare CR line ends", "data: a\r\rdata: b\r\r", []wantEvent{{Data: "a"}, {Data: "b"}}},
		{"mixed line ends", "data: a\r\n\rdata: b\n\r\n", []wantEvent{{Data: "a"}, {Data: "b"}}},
		{"data without a space, and only one space removed", "data:a\n\ndata:  b\n\n", []wantEvent{{Data: "a"}, {Data: " b"}}},
		{"several data lines join with LF", "data: a\ndata:\ndata: c\n\n", []wantEvent{{Data: "a\n\nc"}}},
		{"comments, id, retry and unknown fields are ignored", ": hi\nid: 7\nretry: 10\nfoo: bar\nnocolon\ndata: a\n\n", []wantEvent{{Data: "a"}}},
		{"a blank line without data dispatches nothing", "\n\n: c\n\nid: 1\n\n", nil},
		{"the last event is dispatched at EOF", "data: a\n\ndata: b", []wantEvent{{Data: "a"}, {Data: "b"}}},
		{"a last line ending in CR at EOF", "data: a\r", []wantEvent{{Data: "a"}}},
		{"event: error is flagged, and only for its event", "event: error\ndata: x\n\ndata: y\n\n", []wantEvent{{Error: true, Data: "x"}, {Data: "y"}}},
		{"event: error without data is still dispatched", "event: error\n\n", []wantEvent{{Error: true}}},
		{"other event types are plain events", "event: answer\ndata: x\n\n", []wantEvent{{Data: "x"}}},
		{"a bare 'data' line is an empty data line", "data\n\n", []wantEvent{{}}},
		{"UTF-8 passes through", "data: 中文\n\n", []wantEvent{{Data: "中文"}}},
	}
	readers := []struct {
		name string
		wrap func(string) io.Reader
	}{
		{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
		{"one byte", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
		{"random pieces", func(s string) io.Reader { return streamtest.NewPieceReader([]byte(s), 7, 5) }},
	}
	for _, tt := range tests {
		for _, rd := range readers {
			t.Run(tt.reason+"/"+rd.name, func(t *testing.T) {
				got, err := readEvents(t, rd.wrap(tt.in))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// A CR at the end of one read and the LF at the start of the next are one
// line end, not a line end and a blank line that would dispatch early.
func TestSSEReaderCRLFSplitAcrossReads(t *testing.T) {
	r := &streamtest.SplitReader{Pieces: []string{"data: a\r", "\ndata: b\r", "\n\r", "\n"}}
	got, err := readEvents(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]wantEvent{{Data: "a\nb"}}, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestSSEReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom))
	got, err := readEvents(t, r)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
	if diff := cmp.Diff([]wantEvent{{Data: "a"}}, got); diff != "" {
		t.Errorf("events before the error (-want +got):\n%s", diff)
	}
}

// Lines far longer than the read buffer (and than bufio.Scanner's 64 KiB) are
// read whole, with every line end.
func TestSSEReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 3<<20+17)
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		in := "data: " + long + eol + eol + "data: after" + eol + eol
		got, err := readEvents(t, streamtest.NewPieceReader([]byte(in), 1, 1<<16))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Data != long || got[1].Data != "after" {
			t.Errorf("eol %q: got %d events, first %d bytes", eol, len(got), len(got[0].Data))
		}
	}
}
