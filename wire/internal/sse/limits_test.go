package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/streamtest"
	"github.com/google/go-cmp/cmp"
)

// A UTF-8 byte-order mark before the first line is skipped (the SSE standard
// strips one leading BOM); a BOM anywhere else is data.
func TestSSEReaderBOM(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   []wantEvent
	}{
		{"a BOM before the first data line", "\uFEFFdata: a\n\n", []wantEvent{{Data: "a"}}},
		{"a BOM before a first blank line", "\uFEFF\ndata: a\n\n", []wantEvent{{Data: "a"}}},
		{"a BOM before a first comment", "\uFEFF: hi\r\ndata: a\r\n\r\n", []wantEvent{{Data: "a"}}},
		{"only the first BOM is skipped", "\uFEFF\uFEFFdata: a\n\n", nil},
		{"a BOM on a later line is part of that line", "data: a\n\n\uFEFFdata: b\n\n", []wantEvent{{Data: "a"}}},
		{"a BOM inside data stays", "data: \uFEFFa\n\n", []wantEvent{{Data: "\uFEFFa"}}},
	}
	for _, tt := range tests {
		for _, rd := range []struct {
			name string
			r    io.Reader
		}{{"whole", strings.NewReader(tt.in)}, {"random pieces", streamtest.NewPieceReader([]byte(tt.in), 3, 2)}} {
			got, err := readEvents(t, rd.r)
			if err != nil {
				t.Fatalf("%s/%s: %v", tt.reason, rd.name, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s/%s: events (-want +got):\n%s", tt.reason, rd.name, diff)
			}
		}
	}
}

// endless repeats b forever.
type endless struct {
	b   []byte
	rep []byte // b repeated to at least 64 KiB
	off int    // where the next read starts in b
	n   int64  // bytes served
}

func (e *endless) Read(p []byte) (int, error) {
	if e.rep == nil {
		e.rep = bytes.Repeat(e.b, (64<<10)/len(e.b)+1)
	}
	n := copy(p, e.rep[e.off:])
	e.off = (e.off + n) % len(e.b)
	e.n += int64(n)
	return n, nil
}

// One line that never ends, and one event whose data lines never end, stop
// at the limit with agent.ErrEventTooLarge instead of growing without bound.
func TestSSEReaderEventTooLarge(t *testing.T) {
	tests := []struct {
		reason string
		src    io.Reader
	}{
		{"a data line that never ends", io.MultiReader(strings.NewReader("data: "), &endless{b: []byte("x")})},
		{"a comment line that never ends", io.MultiReader(strings.NewReader(":"), &endless{b: []byte("x")})},
		{"an event of data lines that never ends", &endless{b: []byte("data: 0123456789abcdef\n")}},
		{"the same with bare CRs", &endless{b: []byte("data: 0123456789abcdef\r")}},
	}
	for _, tt := range tests {
		sr := NewReader(tt.src)
		sr.Max = 1 << 20
		_, err := sr.Next()
		if !errors.Is(err, agent.ErrEventTooLarge) {
			t.Errorf("%s: err = %v, want ErrEventTooLarge", tt.reason, err)
		}
		if len(sr.buf) > 2*sr.Max || cap(sr.own) > 2*sr.Max {
			t.Errorf("%s: holds a %d-byte buffer and %d bytes of data, limit %d", tt.reason, len(sr.buf), cap(sr.own), sr.Max)
		}
	}
	// The real limit: the error says what the limit is.
	src := &endless{b: []byte("x")}
	_, err := NewReader(io.MultiReader(strings.NewReader("data: "), src)).Next()
	if !errors.Is(err, agent.ErrEventTooLarge) {
		t.Fatalf("err = %v, want ErrEventTooLarge", err)
	}
	if diff := cmp.Diff("one server-sent event is larger than 16 MiB (the limit of one event)", err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if src.n > 3*agent.MaxEventBytes {
		t.Errorf("read %d bytes before giving up, want at most %d", src.n, 3*agent.MaxEventBytes)
	}
}

// An event just under the limit is read whole.
func TestSSEReaderEventAtLimit(t *testing.T) {
	sr := NewReader(strings.NewReader("data: " + strings.Repeat("a", 1000) + "\ndata: " + strings.Repeat("b", 1000) + "\n\n"))
	sr.Max = 2001
	ev, err := sr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Data) != 2001 {
		t.Errorf("data is %d bytes, want 2001", len(ev.Data))
	}
}
