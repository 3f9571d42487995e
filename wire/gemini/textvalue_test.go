package gemini

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encodingJSON is what encoding/json writes for s without HTML escaping,
// the quotes and the newline Encode adds taken off.
func encodingJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

func TestWriteJSONChars(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{`a "q" \ b`, `a \"q\" \\ b`},
		{"\b\f\n\r\t", `\b\f\n\r\t`},
		{"\x00\x01\x1f\x7f", `\u0000\u0001\u001f` + "\x7f"},
		{"<a&b>", "<a&b>"},
		{"中文 ✓ 😀", "中文 ✓ 😀"},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
		{"bad \xff\xfe end \xe4\xb8", `bad \ufffd\ufffd end \ufffd\ufffd`},
		{"", ""},
	}
	for _, tt := range tests {
		var out strings.Builder
		writeJSONChars(&out, tt.in)
		if out.String() != tt.want {
			t.Errorf("writeJSONChars(%q) = %q, want %q", tt.in, out.String(), tt.want)
		}
		if got := encodingJSON(tt.in); got != tt.want {
			t.Errorf("encoding/json writes %q as %q: the table is wrong", tt.in, got)
		}
	}
}

// FuzzWriteJSONChars holds writeJSONChars to encoding/json on any bytes.
func FuzzWriteJSONChars(f *testing.F) {
	for _, s := range []string{"", `"\`, "\x00\u2028\xff", "中文\t😀", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var out strings.Builder
		writeJSONChars(&out, s)
		if want := encodingJSON(s); out.String() != want {
			t.Fatalf("writeJSONChars(%q) = %q, encoding/json %q", s, out.String(), want)
		}
	})
}

// TestTextValueSegments: pieces of every size come back in order, whole,
// and a big piece is kept as it came, not copied.
func TestTextValueSegments(t *testing.T) {
	big := strings.Repeat("b", bigPiece)
	var tv textValue
	var want strings.Builder
	for i := range 3 * tailSegment {
		p := "xyz中"[:1+i%3]
		if i%50_000 == 0 {
			p = big
		}
		tv.add(p)
		want.WriteString(p)
	}
	segs := tv.segments()
	if got := strings.Join(segs, ""); got != want.String() {
		t.Fatalf("joined segments differ from the pieces (%d bytes, want %d)", len(got), want.Len())
	}
	if tv.n != want.Len() {
		t.Errorf("n = %d, want %d", tv.n, want.Len())
	}
	if segs[0] != big || len(segs) < 4 {
		t.Errorf("%d segments, the first %d bytes: want the big piece first and the small ones gathered", len(segs), len(segs[0]))
	}
	for i, s := range segs[1:] {
		if len(s) > tailSegment+3 && s != big {
			t.Errorf("segment %d is %d bytes: the tail must become a segment at %d", i+1, len(s), tailSegment)
		}
	}
}
