package sse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		reason, in string
		want       []Event
	}{
		{"clean stream", "data: {\"a\":1}\n\ndata: [DONE]\n\n",
			[]Event{{Data: `{"a":1}`, HasData: true}, {Data: "[DONE]", HasData: true}}},
		{"CRLF, bare CR, data without space", "data:x\r\n\r\ndata: y\r\rdata: z\n\n",
			[]Event{{Data: "x", HasData: true}, {Data: "y", HasData: true}, {Data: "z", HasData: true}}},
		{"comments, event name, multi-line data, unknown fields", ": hi\nevent: error\nid: 7\ndata: a\ndata: b\n\n: alone\n\n",
			[]Event{{Comments: []string{" hi"}, Name: "error", Data: "a\nb", HasData: true}, {Comments: []string{" alone"}}}},
		{"last event without a blank line", "data: end", []Event{{Data: "end", HasData: true}}},
		{"empty data line", "data:\n\n", []Event{{HasData: true}}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Parse([]byte(tt.in))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	clean, err := os.ReadFile(filepath.Join("..", "quirk", "testdata", "clean.sse")) // the quirks' clean chat stream
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(clean), string(Format(Parse(clean), "\n"))); diff != "" {
		t.Errorf("clean fixture does not survive a round trip (-want +got):\n%s", diff)
	}
	in := ": c\nevent: e\ndata: a\ndata: b\n\n"
	if got := string(Format(Parse([]byte(in)), "\r\n")); got != ": c\r\nevent: e\r\ndata: a\r\ndata: b\r\n\r\n" {
		t.Errorf("CRLF format = %q", got)
	}
}

// FuzzParse checks that formatting what was parsed and parsing it again
// gives the same events, whatever the framing of the input, and that
// Format writes them into one buffer of their size.
func FuzzParse(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: [DONE]\n\n"))
	f.Add([]byte(": c\r\nevent: e\r\ndata:x\r\rdata\n\n"))
	f.Add([]byte(": c\nevent: e\ndata: a\ndata: b\n\ndata\ndata\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		events := Parse(in)
		again := Parse(Format(events, "\n"))
		if diff := cmp.Diff(events, again); diff != "" {
			t.Errorf("parse(format(parse(x))) != parse(x) (-first +second):\n%s", diff)
		}
		formatted := Format(events, "\r\n")
		crlf := Parse(formatted)
		if diff := cmp.Diff(events, crlf); diff != "" {
			t.Errorf("CRLF framing changed the events (-first +second):\n%s", diff)
		}
		if len(formatted) != cap(formatted) { // one buffer, of the size written
			t.Errorf("%d bytes formatted in a buffer of %d", len(formatted), cap(formatted))
		}
	})
}
