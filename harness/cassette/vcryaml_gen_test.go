package cassette

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"gopkg.in/yaml.v3"
)

// pieces are what generated strings are made of: whatever makes yaml.v3
// pick another scalar style, or that its scanner reads specially.
var pieces = []string{
	"a", "data: {\"x\":1}", " ", "  ", "\n", "\n\n", "\t", "\r", "\r\n", "#", " #", ":", ": ", "-", "- ", "|", ">", "'", "\"",
	"\\", "é", "中文", "😀", "\u2028", "\u2029", "\u0085", "\u00a0", "\ufeff", "\x00", "\x01", "\x1b", "\x7f", "\xff",
	"null", "~", "true", "0x1F", "1_000", "010", "&a", "*a", "!!str", "%", "@", "`", "{}", "[]", "---", "...", "? ", ",",
}

// ordinary is pieces but those that make the fast path decline: the
// characters yaml.v3 writes as they are and reads as line breaks, and bytes
// that are not UTF-8.
var ordinary = slices.DeleteFunc(slices.Clone(pieces), func(p string) bool {
	return strings.ContainsAny(p, "\u0085\u2028\u2029") || !utf8.ValidString(p)
})

// headerPieces make header values as gateways send them.
var headerPieces = []string{"a", "text/event-stream", " ", "; ", "=", "\"", "'", "é", "0", "null", "true", "1_000"}

// genString is a string of up to n pieces.
func genString(r *rand.Rand, n int, pieces []string) string {
	var b strings.Builder
	for range r.IntN(n + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// genCassette is a cassette of random interactions, strings and headers;
// its strings are made of pieces, its header values of headerPieces when

func genCassette(r *rand.Rand, pieces []string, headers []string) *vcr.Cassette {
	c := vcr.New("")
	for range r.IntN(4) {
		i := &vcr.Interaction{}
		i.Request.Body = genString(r, 12, pieces)
		i.Request.URL = "http://gw.test/v1/chat/completions" + genString(r, 2, pieces)
		i.Request.Method = "POST"
		i.Request.Headers = http.Header{}
		for range r.IntN(3) {
			var values []string
			for range r.IntN(3) {
				values = append(values, genString(r, 3, headers))
			}
			i.Request.Headers["X-"+fmt.Sprint(r.IntN(100))] = values
		}
		if r.IntN(2) == 0 {
			i.Request.Form = map[string][]string{"q": {genString(r, 2, headers)}}
		}
		i.Response.Body = genString(r, 40, pieces)
		i.Response.Headers = http.Header{"Content-Type": {"text/event-stream"}}
		i.Response.Status = genString(r, 2, pieces)
		i.Response.Code = 100 + r.IntN(900)
		i.Response.Duration = time.Duration(r.IntN(5)) * 1500 * time.Millisecond
		c.Interactions = append(c.Interactions, i)
	}
	return c
}

// TestFastDecodeGenerated: what yaml.v3 writes for random cassettes is
// decoded as yaml.v3 reads it; all that yaml.v3 reads back when the
// strings are made of ordinary pieces and the header values of
// headerPieces (declined are only bytes that are not UTF-8, which yaml.v3
// writes as !!binary, the characters it writes as they are and reads as
// line breaks, U+0085, U+2028 and U+2029, and header values with line
// breaks). yaml.v3 refuses some of what it writes: a literal block whose
// first line starts with a tab. 300 cassettes per mode keep every piece in
// play many times over; FuzzFastDecode searches further than a fixed count
// could.
func TestFastDecodeGenerated(t *testing.T) {
	const count = 300
	r := rand.New(rand.NewPCG(23, 1))
	for _, mode := range []struct {
		name            string
		pieces, headers []string
	}{{"any", pieces, pieces}, {"ordinary", ordinary, headerPieces}} {
		read := 0
		for n := range count {
			data, err := yaml.Marshal(genCassette(r, mode.pieces, mode.headers))
			if err != nil {
				t.Fatal(err)
			}
			if likeYAML(t, fmt.Sprintf("%s cassette %d", mode.name, n), append([]byte("---\n"), data...)) {
				read++
			} else if mode.name == "ordinary" && yaml.Unmarshal(data, new(vcr.Cassette)) == nil {
				t.Errorf("%s cassette %d: declined:\n%q", mode.name, n, data)
			}
		}
		t.Logf("%s: %d of %d read by the fast path", mode.name, read, count)
	}
}

// mutations are edits of a YAML text that make other shapes out of one
// the fast path reads.
var mutations = []string{" ", "  ", "\n", "\t", "\r", "#", ":", "-", "- ", "|", "|-", "|+", "|2", ">", "'", "''", "\"", "\\", "\\u00e9",
	"\\x4", "&a ", "*a", "!!str ", "{}", "[]", "null", "~", "é", "\u2028", "\xff", "0", "9", "x"}

// TestFastDecodeMutations: cassettes edited at random (a piece inserted,
// bytes removed or replaced) are either declined or decoded as yaml.v3
// decodes them. 1500 edits put each mutation in about 45 places; the
// search beyond that is FuzzFastDecode's.
func TestFastDecodeMutations(t *testing.T) {
	const count = 1500
	r := rand.New(rand.NewPCG(23, 2))
	var bases []string
	for range 20 {
		data, err := yaml.Marshal(genCassette(r, pieces, pieces))
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, string(data))
	}
	demo, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bases = append(bases, doc(" |+\n            data: x\n\n"), doc(" \"a\\tb\\u00e9\""), doc(" 'it''s'"), string(demo[:4000]))
	read := 0
	for n := range count {
		text := bases[r.IntN(len(bases))]
		for range 1 + r.IntN(3) {
			at := r.IntN(len(text) + 1)
			switch r.IntN(3) {
			case 0:
				text = text[:at] + mutations[r.IntN(len(mutations))] + text[at:]
			case 1:
				text = text[:at] + text[min(len(text), at+1+r.IntN(4)):]
			default:
				text = text[:at] + mutations[r.IntN(len(mutations))] + text[min(len(text), at+1):]
			}
		}
		if likeYAML(t, fmt.Sprintf("mutation %d", n), []byte(text)) {
			read++
		}
	}
	t.Logf("%d of %d mutations read by the fast path", read, count)
}

// FuzzFastDecode: any input is either declined or decoded as yaml.v3
// decodes it.
func FuzzFastDecode(f *testing.F) {
	f.Add([]byte(doc(" |2-\n            a\n")))
	f.Add([]byte(doc(` "\x41\u00e9\U0001F600"`)))
	f.Add([]byte("version: 1\ninteractions:\n- request:\n    headers:\n      A:\n      - x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		likeYAML(t, "fuzz input", data)
	})
}

// TestLoadDecodesBodiesOnce: Load of a cassette with a 4 MiB answer
// allocates little more than the answer (yaml.v3 allocated about four
// times it: a growing buffer, its node tree and the string).
func TestLoadDecodesBodiesOnce(t *testing.T) {
	var body, text strings.Builder
	for n := 0; body.Len() < 4<<20; n++ {
		line := fmt.Sprintf("data: {\"choices\":[{\"delta\":{\"content\":\"回放 %d\"}}]}", n)
		body.WriteString(line + "\n\n")
		text.WriteString("            " + line + "\n\n")
	}
	path := writeCassette(t, doc(" |+\n"+strings.TrimSuffix(text.String(), "\n")))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := Load(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got.Interactions[0].Response.Body != body.String() {
		t.Fatal("the answer does not read back")
	}
	if alloc, most := after.TotalAlloc-before.TotalAlloc, uint64(text.Len())+1<<20; alloc > most {
		t.Errorf("Load allocated %d bytes for a %d-byte answer, want at most %d", alloc, body.Len(), most)
	}
}

// TestValidText: the word-at-a-time and three-byte shortcuts of validText
// agree with a check of one character at a time, on random text.
func TestValidText(t *testing.T) {
	plain := func(b []byte, tabs bool) bool {
		for _, r := range string(b) {
			ok := r == '\t' && tabs || r >= 0x20 && r <= 0x7e || r >= 0xa0 && r <= 0xd7ff && r != 0x2028 && r != 0x2029 ||
				r >= 0xe000 && r <= 0xfffd && r != 0xfeff || r >= 0x10000
			if !ok {
				return false
			}
		}
		return utf8.Valid(b)
	}
	r := rand.New(rand.NewPCG(23, 3))
	for n := range 20000 {
		var b []byte
		for range r.IntN(30) {
			if r.IntN(4) == 0 {
				b = append(b, byte(r.IntN(256)))
			} else {
				b = append(b, pieces[r.IntN(len(pieces))]...)
			}
		}
		tabs := n%2 == 0
		if got, want := validText(b, tabs), plain(b, tabs); got != want {
			t.Fatalf("validText(%q, %v) = %v, want %v", b, tabs, got, want)
		}
	}
}

// longPieces make long lines: characters of one to four bytes, so that the
// decoder's buffer ends inside some of them, and what JSON events hold.
var longPieces = []string{"a", "é", "中", "😀", "data: ", "\"", "\\", ": ", "#", "|"}

// genAnswer is an answer of up to six lines, each empty, short, or up to
// 150 KiB (longer than the decoder's 64 KiB buffer), some starting with
// spaces, then any number of line breaks or none.
func genAnswer(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(6) {
		if r.IntN(3) > 0 {
			b.WriteString(strings.Repeat(" ", r.IntN(3)))
			for n := r.IntN(150 << 10); n > 0; n -= 4 {
				b.WriteString(longPieces[r.IntN(len(longPieces))])
			}
			b.WriteString("a")
		}
		b.WriteString(strings.Repeat("\n", 1+r.IntN(3)))
	}
	if r.IntN(3) == 0 {
		return strings.TrimRight(b.String(), "\n")
	}
	return b.String()
}

// literalValue writes body as a literal block value of doc's "body:"
// (yaml.v3 would quote it: it escapes characters beyond U+FFFF): the
// chomping indicator its final line breaks need, and an indentation
// indicator when its first line with text starts with a space.
func literalValue(body string) string {
	header := " |"
	if first := strings.TrimLeft(body, "\n"); strings.HasPrefix(first, " ") {
		header += "4"
	}
	switch {
	case !strings.HasSuffix(body, "\n"):
		header += "-"
	case strings.HasSuffix(body, "\n\n"):
		header += "+"
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "            " + l
		}
	}
	return header + "\n" + strings.TrimSuffix(strings.Join(lines, "\n"), "\n")
}

// quotedValue writes body as a double-quoted value of doc's "body:", on
// one line: line breaks, quotes and backslashes escaped, and some of the
// other characters too, at random.
func quotedValue(r *rand.Rand, body string) string {
	var b strings.Builder
	b.WriteString(` "`)
	for _, c := range body {
		switch {
		case c == '\n':
			b.WriteString(`\n`)
		case c == '"' || c == '\\':
			b.WriteString(`\` + string(c))
		case r.IntN(8) == 0:
			fmt.Fprintf(&b, `\U%08x`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString(`"`)
	return b.String()
}

// TestAnswersGeneratedLong: answers with lines longer than the decoder's
// buffer, written as literal blocks (with empty lines, more-indented lines
// and every chomping) and as double-quoted scalars (one line, with
// escapes), are decoded as yaml.v3 decodes them and read back alike from
// the input (likeYAML: whole and a byte at a time), and in reads of other
// sizes.
func TestAnswersGeneratedLong(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 4))
	for n := range 12 {
		body := genAnswer(r)
		data := []byte(doc(literalValue(body)))
		if n%3 == 2 {
			data = []byte(doc(quotedValue(r, body)))
		}
		name := fmt.Sprintf("long answer %d", n)
		if !likeYAML(t, name, data) {
			t.Fatalf("%s: declined", name)
		}
		spans := map[int]*blockSpan{}
		if err := decodeVCR(bytes.NewReader(data), int64(len(data)), new(vcr.Cassette), spans); err != nil {
			t.Fatal(err)
		}
		if len(spans) != 1 {
			t.Fatalf("%s: %d answers left in the input, want 1", name, len(spans))
		}
		for _, size := range []int{7, 4093, 65537} {
			var got []byte
			a := readAnswer(bytes.NewReader(data), name, 0, spans[0])
			buf := make([]byte, size)
			for {
				m, err := a.Read(buf)
				got = append(got, buf[:m]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: in reads of %d bytes: %v", name, size, err)
				}
			}
			if string(got) != body {
				t.Fatalf("%s: in reads of %d bytes: %d bytes, want %d", name, size, len(got), len(body))
			}
		}
	}
}
