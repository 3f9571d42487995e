package sse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitEvents(t *testing.T) {
	tests := []struct {
		reason, in string
		want       []string
	}{
		{"LF", "data: a\n\ndata: b\n\n", []string{"data: a\n\n", "data: b\n\n"}},
		{"CRLF", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"data: a\r\n\r\n", "data: b\r\n\r\n"}},
		{"bare CR", "data: a\r\rdata: b\r\r", []string{"data: a\r\r", "data: b\r\r"}},
		{"a comment is its own event; two data lines stay together", ": keepalive\n\ndata: a\ndata: b\n\n", []string{": keepalive\n\n", "data: a\ndata: b\n\n"}},
		{"a last event without its blank line", "data: a\n\ndata: [DONE]\n", []string{"data: a\n\n", "data: [DONE]\n"}},
		{"empty", "", nil},
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
		})
	}
}
