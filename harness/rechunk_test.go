package harness

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestRechunkPieces(t *testing.T) {
	body := []byte("data: 你好\r\n\r\nok")
	tests := []struct {
		reason string
		r      Rechunk
		want   []string
	}{
		{"whole is one piece", Rechunk{Mode: RechunkWhole}, []string{"data: 你好\r\n\r\nok"}},
		{"boundaries cut inside each CRLF and between the bytes of each character",
			Rechunk{Mode: RechunkBoundaries},
			[]string{"data: \xe4", "\xbd", "\xa0\xe5", "\xa5", "\xbd\r", "\n\r", "\nok"}},
		{"random sizes from seed 1, at most 4", Rechunk{Mode: RechunkRandom, Seed: 1, Max: 4},
			[]string{"da", "ta: ", "你", "好\r", "\n\r", "\n", "ok"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range tt.r.Pieces(body) {
			got = append(got, string(p))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
		}
	}
	if n := len(Rechunk{Mode: RechunkBytes}.Pieces(body)); n != len(body) {
		t.Errorf("bytes mode: %d pieces, want %d", n, len(body))
	}
	if got := (Rechunk{Mode: RechunkBytes}).Pieces(nil); got != nil {
		t.Errorf("empty body: %q, want no pieces", got)
	}
}

// TestRechunkReader runs iotest.TestReader (reads of every size, Seek
// excluded) over every mode, and checks each Read stops at a piece end.
func TestRechunkReader(t *testing.T) {
	body := readFixture(t, "quirks/clean.sse")
	crlfBody, err := mustQuirk("crlf").Apply(body, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Rechunk{{Mode: RechunkWhole}, {Mode: RechunkBytes}, {Mode: RechunkBoundaries}, {Mode: RechunkRandom, Seed: 3}, {Mode: RechunkRandom, Seed: 4, Max: 1000}} {
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
	body, err := mustQuirk("crlf").Apply(readFixture(t, "quirks/clean.sse"), 1)
	if err != nil {
		t.Fatal(err)
	}
	pieces := Rechunk{Mode: RechunkBoundaries}.Pieces(body)
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

func TestRechunkReaderReturnsSourceError(t *testing.T) {
	boom := errors.New("connection reset")
	src := io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom))
	got, err := io.ReadAll(Rechunk{Mode: RechunkBytes}.Reader(src))
	if string(got) != "abc" || !errors.Is(err, boom) {
		t.Errorf("got %q, %v; want \"abc\", connection reset", got, err)
	}
}

func TestParseRechunkMode(t *testing.T) {
	for _, m := range []RechunkMode{RechunkWhole, RechunkBytes, RechunkBoundaries, RechunkRandom} {
		got, err := ParseRechunkMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseRechunkMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	_, err := ParseRechunkMode("lines")
	want := `unknown rechunk mode "lines" (want whole, bytes, boundaries or random)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if s := RechunkMode(9).String(); s != "RechunkMode(9)" {
		t.Errorf("String() = %q", s)
	}
}

type fixedTransport string

func (f fixedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(string(f))), Request: req}, nil
}

func TestRechunkTransport(t *testing.T) {
	next := fixedTransport("héllo")
	if got := (Rechunk{}).Transport(next); got != http.RoundTripper(next) {
		t.Error("whole mode should return the transport itself")
	}
	req, _ := http.NewRequest("GET", "http://x.invalid/", nil)
	resp, err := Rechunk{Mode: RechunkBoundaries}.Transport(next).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var reads []string
	buf := make([]byte, 100)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			reads = append(reads, string(buf[:n]))
		}
		if err != nil {
			break
		}
	}
	if diff := cmp.Diff([]string{"h\xc3", "\xa9llo"}, reads); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	if err := resp.Body.Close(); err != nil {
		t.Error(err)
	}
}

func BenchmarkRechunkRandom(b *testing.B) {
	body := bytes.Repeat([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"你好\"}}]}\r\n\r\n"), 200)
	buf := make([]byte, 4096)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rd := Rechunk{Mode: RechunkRandom, Seed: 1}.Reader(bytes.NewReader(body))
		for {
			if _, err := rd.Read(buf); err != nil {
				break
			}
		}
	}
}
