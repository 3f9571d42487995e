package harness

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSSE(t *testing.T) {
	tests := []struct {
		reason, in string
		want       []SSEEvent
	}{
		{"clean stream", "data: {\"a\":1}\n\ndata: [DONE]\n\n",
			[]SSEEvent{{Data: `{"a":1}`, HasData: true}, {Data: "[DONE]", HasData: true}}},
		{"CRLF, bare CR, data without space", "data:x\r\n\r\ndata: y\r\rdata: z\n\n",
			[]SSEEvent{{Data: "x", HasData: true}, {Data: "y", HasData: true}, {Data: "z", HasData: true}}},
		{"comments, event name, multi-line data, unknown fields", ": hi\nevent: error\nid: 7\ndata: a\ndata: b\n\n: alone\n\n",
			[]SSEEvent{{Comments: []string{" hi"}, Name: "error", Data: "a\nb", HasData: true}, {Comments: []string{" alone"}}}},
		{"last event without a blank line", "data: end", []SSEEvent{{Data: "end", HasData: true}}},
		{"empty data line", "data:\n\n", []SSEEvent{{HasData: true}}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ParseSSE([]byte(tt.in))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
}

func TestFormatSSERoundTrip(t *testing.T) {
	clean := readFixture(t, "quirks/clean.sse")
	if diff := cmp.Diff(string(clean), string(FormatSSE(ParseSSE(clean), "\n"))); diff != "" {
		t.Errorf("clean fixture does not survive a round trip (-want +got):\n%s", diff)
	}
	in := ": c\nevent: e\ndata: a\ndata: b\n\n"
	if got := string(FormatSSE(ParseSSE([]byte(in)), "\r\n")); got != ": c\r\nevent: e\r\ndata: a\r\ndata: b\r\n\r\n" {
		t.Errorf("CRLF format = %q", got)
	}
}

// FuzzParseSSE checks that formatting what was parsed and parsing it again
// gives the same events, whatever the framing of the input.
func FuzzParseSSE(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: [DONE]\n\n"))
	f.Add([]byte(": c\r\nevent: e\r\ndata:x\r\rdata\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		events := ParseSSE(in)
		again := ParseSSE(FormatSSE(events, "\n"))
		if diff := cmp.Diff(events, again); diff != "" {
			t.Errorf("parse(format(parse(x))) != parse(x) (-first +second):\n%s", diff)
		}
		crlf := ParseSSE(FormatSSE(events, "\r\n"))
		if diff := cmp.Diff(events, crlf); diff != "" {
			t.Errorf("CRLF framing changed the events (-first +second):\n%s", diff)
		}
	})
}

// FuzzRechunk checks that any body, cut any way, reads back whole.
func FuzzRechunk(f *testing.F) {
	f.Add([]byte("data: 你好\r\n\r\n"), int64(1), uint8(2), 3)
	f.Fuzz(func(t *testing.T, body []byte, seed int64, mode uint8, max int) {
		r := Rechunk{Mode: RechunkMode(mode % 4), Seed: seed, Max: max % 64}
		if !bytes.Equal(bytes.Join(r.Pieces(body), nil), body) {
			t.Errorf("pieces do not concatenate to the body (%+v)", r)
		}
		for _, p := range r.Pieces(body) {
			if len(p) == 0 {
				t.Fatalf("empty piece (%+v)", r)
			}
		}
	})
}
