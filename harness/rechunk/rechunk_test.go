package rechunk

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func TestRechunkPieces(t *testing.T) {
	body := []byte("data: 你好\r\n\r\nok")
	tests := []struct {
		reason string
		r      Cutter
		want   []string
	}{
		{"whole is one piece", Cutter{Mode: Whole}, []string{"data: 你好\r\n\r\nok"}},
		{"boundaries cut inside each CRLF and between the bytes of each character",
			Cutter{Mode: Boundaries},
			[]string{"data: \xe4", "\xbd", "\xa0\xe5", "\xa5", "\xbd\r", "\n\r", "\nok"}},
		{"random sizes from seed 1, at most 4", Cutter{Mode: Random, Seed: 1, Max: 4},
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
	if n := len(Cutter{Mode: Bytes}.Pieces(body)); n != len(body) {
		t.Errorf("bytes mode: %d pieces, want %d", n, len(body))
	}
	if got := (Cutter{Mode: Bytes}).Pieces(nil); got != nil {
		t.Errorf("empty body: %q, want no pieces", got)
	}
}

func TestRechunkReaderReturnsSourceError(t *testing.T) {
	boom := errors.New("connection reset")
	src := io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom))
	got, err := io.ReadAll(Cutter{Mode: Bytes}.Reader(src))
	if string(got) != "abc" || !errors.Is(err, boom) {
		t.Errorf("got %q, %v; want \"abc\", connection reset", got, err)
	}
}

func TestParseRechunkMode(t *testing.T) {
	for _, m := range []Mode{Whole, Bytes, Boundaries, Random} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	_, err := ParseMode("lines")
	want := `unknown rechunk mode "lines" (want whole, bytes, boundaries or random)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if s := Mode(9).String(); s != "Mode(9)" {
		t.Errorf("String() = %q", s)
	}
}

type fixedTransport string

func (f fixedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(string(f))), Request: req}, nil
}

func TestRechunkTransport(t *testing.T) {
	next := fixedTransport("héllo")
	if got := (Cutter{}).Transport(next); got != http.RoundTripper(next) {
		t.Error("whole mode should return the transport itself")
	}
	req, _ := http.NewRequest("GET", "http://x.invalid/", nil)
	resp, err := Cutter{Mode: Boundaries}.Transport(next).RoundTrip(req)
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
		rd := Cutter{Mode: Random, Seed: 1}.Reader(bytes.NewReader(body))
		for {
			if _, err := rd.Read(buf); err != nil {
				break
			}
		}
	}
}

// FuzzRechunk checks that any body, cut any way, reads back whole.
func FuzzRechunk(f *testing.F) {
	f.Add([]byte("data: 你好\r\n\r\n"), int64(1), uint8(2), 3)
	f.Fuzz(func(t *testing.T, body []byte, seed int64, mode uint8, max int) {
		r := Cutter{Mode: Mode(mode % 4), Seed: seed, Max: max % 64}
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
