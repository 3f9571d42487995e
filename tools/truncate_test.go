package tools

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTruncateGoldenNumbers(t *testing.T) {
	s := strings.Repeat("字", 20000)
	got, meta := Truncate(s, ZH)
	note := "\n…（中间已截断 12000 字符，全文共 20000 字符；需要中间部分请带 offset 再读一次）…\n"
	if n := utf8.RuneCountInString(note); n != 54 {
		t.Fatalf("note is %d runes, want 54", n)
	}
	want := strings.Repeat("字", 4800) + note + strings.Repeat("字", 3200)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Truncate (-want +got):\n%s", diff)
	}
	if n := utf8.RuneCountInString(got); n != 8054 {
		t.Errorf("truncated to %d runes, want 8054", n)
	}
	if diff := cmp.Diff(Meta{Truncated: true, OriginalChars: 20000}, meta); diff != "" {
		t.Errorf("meta (-want +got):\n%s", diff)
	}
}

func TestTruncate(t *testing.T) {
	head := strings.Repeat("h", 4800)
	tail := strings.Repeat("t", 3200)
	tests := []struct {
		reason   string
		in       string
		lang     Lang
		want     string
		wantMeta Meta
	}{
		{"empty text is kept", "", ZH, "", Meta{}},
		{"exactly the limit is kept", strings.Repeat("é", 8000), ZH, strings.Repeat("é", 8000), Meta{OriginalChars: 8000}},
		{"one rune over cuts one from the middle", head + "m" + tail, ZH,
			head + "\n…（中间已截断 1 字符，全文共 8001 字符；需要中间部分请带 offset 再读一次）…\n" + tail,
			Meta{Truncated: true, OriginalChars: 8001}},
		{"the en note says the same", head + strings.Repeat("m", 12000) + tail, EN,
			head + "\n…(middle cut: 12000 characters removed, 20000 in all; to get the middle, read again with an offset)…\n" + tail,
			Meta{Truncated: true, OriginalChars: 20000}},
		{"counts runes, not bytes: 8000 emoji are kept", strings.Repeat("😀", 8000), ZH, strings.Repeat("😀", 8000), Meta{OriginalChars: 8000}},
	}
	for _, tt := range tests {
		got, meta := Truncate(tt.in, tt.lang)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: text (-want +got):\n%s", tt.reason, diff)
		}
		if diff := cmp.Diff(tt.wantMeta, meta); diff != "" {
			t.Errorf("%s: meta (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// FuzzTruncate: a cut never splits a UTF-8 sequence, keeps 4800 runes of head
// and 3200 of tail, and reports the length before cutting.
func FuzzTruncate(f *testing.F) {
	f.Add("abc", 3000)
	f.Add("字😀é\u0301", 2500)
	f.Add("x\xffy", 4000)
	f.Fuzz(func(t *testing.T, unit string, repeat int) {
		if unit == "" || repeat < 0 || len(unit)*repeat > 100_000 {
			return
		}
		s := strings.Repeat(unit, repeat)
		got, meta := Truncate(s, ZH)
		n := utf8.RuneCountInString(s)
		if meta.OriginalChars != n {
			t.Fatalf("OriginalChars %d, want %d", meta.OriginalChars, n)
		}
		if n <= MaxResultChars {
			if got != s || meta.Truncated {
				t.Fatalf("text of %d runes changed", n)
			}
			return
		}
		if !meta.Truncated {
			t.Fatal("not marked truncated")
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatal("cut split a UTF-8 sequence")
		}
		note := "\n…（中间已截断 " + strconv.Itoa(n-8000) + " 字符，全文共 " + strconv.Itoa(n) + " 字符；需要中间部分请带 offset 再读一次）…\n"
		head, tail, ok := strings.Cut(got, note)
		if !ok {
			t.Fatalf("note %q missing", note)
		}
		if utf8.RuneCountInString(head) != 4800 || utf8.RuneCountInString(tail) != 3200 {
			t.Fatalf("head %d runes, tail %d runes", utf8.RuneCountInString(head), utf8.RuneCountInString(tail))
		}
		if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
			t.Fatal("head or tail is not from the text")
		}
		if utf8.ValidString(s) {
			rs := []rune(s)
			if head != string(rs[:4800]) || tail != string(rs[n-3200:]) || !utf8.ValidString(got) {
				t.Fatal("cut split a UTF-8 sequence")
			}
		}
	})
}
