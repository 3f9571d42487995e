package sse

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitEvents(t *testing.T) {
	tests := []struct {
		reason, in string
		want       []string
	}{
		{"LF", "data: a\n\ndata: b\n\n", []string{"data: a\n\n", "data: b\n\n"}},
		{"three events", "data: a\n\ndata: b\n\ndata: c\n\n", []string{"data: a\n\n", "data: b\n\n", "data: c\n\n"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"data: a\r\n\r\n", "data: b\r\n\r\n"}},
		{"bare CR", "data: a\r\rdata: b\r\r", []string{"data: a\r\r", "data: b\r\r"}},
		{"a comment is its own event; two data lines stay together", ": keepalive\n\ndata: a\ndata: b\n\n", []string{": keepalive\n\n", "data: a\ndata: b\n\n"}},
		{"a last event without its blank line", "data: a\n\ndata: [DONE]\n", []string{"data: a\n\n", "data: [DONE]\n"}},
		{"empty", "", nil},
		{"blank lines in a row, LF", "\n\ndata: a\n\n\n", []string{"\n", "\n", "data: a\n\n", "\n"}},
		{"blank lines in a row, CRLF", "\r\n\r\ndata: a\r\n\r\n\r\n", []string{"\r\n", "\r\n", "data: a\r\n\r\n", "\r\n"}},
		{"no blank line", "data: a\ndata: b", []string{"data: a\ndata: b"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var got []string
			for _, e := range SplitEvents([]byte(tt.in)) {
				got = append(got, string(e))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if events := SplitEvents([]byte(tt.in)); cap(events) != len(events) {
				t.Errorf("%d events in a list of capacity %d", len(events), cap(events))
			}
			checkFirstEventEnd(t, []byte(tt.in))
		})
	}
}

// checkFirstEventEnd fails unless FirstEventEnd is where SplitEvents cuts
// the first event, 0 when it cuts none. A byte that ends no line, added,
// makes the text after the last cut a piece of its own and no other cut.
func checkFirstEventEnd(t *testing.T, body []byte) {
	t.Helper()
	want := 0
	if events := SplitEvents(append(body[:len(body):len(body)], 'x')); len(events) > 1 {
		want = len(events[0])
	}
	if got := FirstEventEnd(body); got != want {
		t.Errorf("%q: first event ends at %d, SplitEvents cuts it at %d", body, got, want)
	}
}

// FuzzFirstEventEnd: on any body, FirstEventEnd is where SplitEvents cuts
// the first event.
func FuzzFirstEventEnd(f *testing.F) {
	f.Add([]byte("data: a\n\n\ndata: b\n\n"))
	f.Add([]byte("data: a\r\n\r\ndata: b"))
	f.Add([]byte("data: a\r\r"))
	f.Add([]byte(": c\ndata: [DONE]"))
	f.Fuzz(checkFirstEventEnd)
}

// FuzzEventEnds: on a body whose lines end in LF, the line-at-a-time scan
// cuts where the byte-at-a-time one does.
func FuzzEventEnds(f *testing.F) {
	f.Add([]byte("data: a\n\n\ndata: b\n\n"))
	f.Add([]byte("\n\n\nx"))
	f.Add([]byte(": c\ndata: [DONE]"))
	f.Fuzz(func(t *testing.T, body []byte) {
		body = bytes.ReplaceAll(body, []byte("\r"), nil)
		var lf, all []int
		lfEventEnds(body, func(end int) bool { lf = append(lf, end); return true })
		anyEventEnds(body, func(end int) bool { all = append(all, end); return true })
		if diff := cmp.Diff(all, lf); diff != "" {
			t.Errorf("%q: cuts (-byte at a time +line at a time):\n%s", body, diff)
		}
	})
}
