package cassette

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"
)

// likeYAML decodes data with the fast path and with yaml.v3 and fails t
// when the fast path accepts what yaml.v3 decodes otherwise or refuses. It
// reports whether the fast path accepted data.
func likeYAML(t *testing.T, name string, data []byte) bool {
	t.Helper()
	var fast vcr.Cassette
	err := decodeVCR(bytes.NewReader(data), int64(len(data)), &fast, nil)
	if err != nil {
		if !errors.Is(err, errDecline) {
			t.Fatalf("%s: fast path: %v, want errDecline", name, err)
		}
		if fast.Version != 0 || fast.Interactions != nil {
			t.Fatalf("%s: a declined input left version %d and %d interactions", name, fast.Version, len(fast.Interactions))
		}
		return false
	}
	// an arena far too small at first: the bodies move to new ones
	var grown vcr.Cassette
	if err := decodeVCR(bytes.NewReader(data), 1, &grown, nil); err != nil {
		t.Fatalf("%s: with an arena of 1 byte at first: %v", name, err)
	}
	if diff := cmp.Diff(fast.Interactions, grown.Interactions, cmpopts.IgnoreUnexported(vcr.Response{})); diff != "" {
		t.Fatalf("%s: with an arena of 1 byte at first (-sized +grown):\n%s", name, diff)
	}
	answersFromInput(t, name, data, &fast)
	var want vcr.Cassette
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: the fast path accepted what yaml.v3 refuses (%v):\n%q", name, err, data)
	}
	if diff := cmp.Diff(want.Interactions, fast.Interactions, cmpopts.IgnoreUnexported(vcr.Response{})); diff != "" || fast.Version != want.Version {
		t.Fatalf("%s: the fast path decodes %q otherwise than yaml.v3 (version %d, want %d; -yaml.v3 +fast):\n%s", name, data, fast.Version, want.Version, diff)
	}
	return true
}

// TestFastDecodeEveryCassette: every cassette in the repository takes the
// fast path and decodes as yaml.v3 decodes it, but those holding a binary
// answer (Bedrock's event stream, written as !!binary), which the fast
// path leaves to yaml.v3: they decode as yaml.v3 decodes them, by
// yaml.v3.
func TestFastDecodeEveryCassette(t *testing.T) {
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "..", "cassettes"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !likeYAML(t, path, data) && !bytes.Contains(data, []byte(": !!binary ")) {
			t.Errorf("%s: the fast path declined it", path)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 164 {
		t.Errorf("%d cassettes, want 164: update the count when cassettes are added", n)
	}
}

// doc is a cassette of one interaction whose response body is the YAML
// value body (what follows "body:"), under a request at the usual
// indentation.
func doc(body string) string {
	return "---\nversion: 1\ninteractions:\n    - request:\n        body: '{}'\n        form: {}\n        headers: {}\n        url: http://gw.test/v1/chat/completions\n        method: POST\n      response:\n        body:" +
		body + "\n        headers:\n            Content-Type:\n                - text/event-stream\n        status: 200 OK\n        code: 200\n        duration: 0s\n"
}

// TestFastDecodeScalars: the scalars the fast path reads, each decoded as
// yaml.v3 decodes it, and the shapes it leaves to yaml.v3.
func TestFastDecodeScalars(t *testing.T) {
	read := map[string]string{
		"plain":                        doc(" hello world"),
		"plain with colon inside":      doc(" http://a:80/b"),
		"plain starting -x :x ?x":      doc(" -x :x ?x"),
		"plain, non-ASCII":             doc(" 回放 é"),
		"single quoted":                doc(" 'it''s: # not a comment'"),
		"single quoted empty":          doc(" ''"),
		"single quoted with a tab":     doc(" 'a\tb'"),
		"double quoted escapes":        doc(` "\0\a\b\t\	\n\v\f\r\e\ \"\'\\\N\_\L\P"`),
		"double quoted hex":            doc(` "\x41\xff\u00e9\u4e2d\U0001F600\U0010FFFF"`),
		"double quoted empty":          doc(` ""`),
		"literal clip":                 doc(" |\n            a\n            b\n"),
		"literal keep":                 doc(" |+\n            data: x\n\n            data: y\n\n\n"),
		"literal strip":                doc(" |-\n            a\n\n"),
		"literal indicator":            doc(" |2\n              lead\n            x"),
		"literal indicator and chomp":  doc(" |4-\n                 four\n                x\n"),
		"literal chomp and indicator":  doc(" |+1\n          x\n"),
		"literal leading blank lines":  doc(" |\n\n   \n            a\n"),
		"literal more-indented lines":  doc(" |\n            a\n              b\n            \tc\n"),
		"literal lines of spaces":      doc(" |\n            a\n                \n            b\n"),
		"literal at the file's end":    "version: 1\ninteractions:\n- response:\n    body: |\n      a\n      b",
		"literal header at the end":    "version: 1\ninteractions:\n- response:\n    body: |",
		"literal with space after |":   doc(" |  \n            a\n"),
		"literal, a line of # text":    doc(" |\n            # not a comment\n"),
		"sequence at the key's column": "version: 1\ninteractions:\n- request:\n    headers:\n      A:\n      - x\n      - 'y'\n      B: []\n    url: u\n",
		"blank lines between keys":     "\n\nversion: 1\n\ninteractions:\n\n  -   request:\n\n       url: u\n\n",
		"no document start":            "version: 1\ninteractions: []\n",
		"durations":                    strings.Replace(doc(" x"), "0s", "1h2m3.5s", 1),
	}
	for name, text := range read {
		if !likeYAML(t, name, []byte(text)) {
			t.Errorf("%s: declined, want it read by the fast path:\n%s", name, text)
		}
	}
	declined := map[string]string{
		"folded":                           doc(" >\n            a\n            b\n"),
		"folded keep":                      doc(" >+\n            a\n"),
		"anchor":                           doc(" &a x"),
		"alias":                            "version: 1\ninteractions:\n- request: &r\n    url: u\n  response: *r\n",
		"tag":                              doc(" !!str x"),
		"binary":                           doc(" !!binary aGk="),
		"comment line":                     "# c\n" + doc(" x"),
		"comment after a value":            doc(" x # c"),
		"comment after a block header":     doc(" | # c\n            a\n"),
		"multi-line plain":                 doc(" a\n          b"),
		"multi-line single quoted":         doc(" 'a\n          b'"),
		"multi-line double quoted":         doc(" \"a\n          b\""),
		"escaped line break":               doc(" \"a\\\n          b\""),
		"unknown escape":                   doc(` "\/"`),
		"surrogate escape":                 doc(` "\ud800"`),
		"escape over U+10FFFF":             doc(` "\U00110000"`),
		"null body":                        doc(""),
		"tilde body":                       doc(" ~"),
		"null word":                        doc(" null"),
		"flow mapping":                     strings.Replace(doc(" x"), "form: {}", "form: {a: [b]}", 1),
		"flow sequence":                    strings.Replace(doc(" x"), "- text/event-stream", "[text/event-stream]", 1),
		"duplicate key":                    strings.Replace(doc(" x"), "code: 200", "code: 200\n        code: 201", 1),
		"unknown key":                      strings.Replace(doc(" x"), "code: 200", "code: 200\n        extra: 1", 1),
		"tab indentation":                  strings.Replace(doc(" x"), "        code:", "\tcode:", 1),
		"tab in block indentation":         doc(" |\n        \t    a\n"),
		"CRLF":                             strings.ReplaceAll(doc(" x"), "\n", "\r\n"),
		"NEL in a literal":                 doc(" |\n            a\u0085b\n"),
		"LS in a quoted scalar":            doc(" 'a\u2028b'"),
		"BOM":                              "\ufeff" + doc(" x"),
		"control character":                doc(" 'a\x01b'"),
		"invalid UTF-8":                    doc(" 'a\xffb'"),
		"hex code":                         strings.Replace(doc(" x"), "code: 200", "code: 0xC8", 1),
		"octal code":                       strings.Replace(doc(" x"), "code: 200", "code: 0310", 1),
		"quoted code":                      strings.Replace(doc(" x"), "code: 200", "code: \"200\"", 1),
		"duration without unit":            strings.Replace(doc(" x"), "0s", "0", 1),
		"quoted key":                       strings.Replace(doc(" x"), "code: 200", "\"code\": 200", 1),
		"second document":                  doc(" x") + "---\nversion: 1\n",
		"document end":                     doc(" x") + "...\n",
		"directive":                        "%YAML 1.1\n---\n" + doc(" x"),
		"indented top level":               "  version: 1\n",
		"empty":                            "",
		"literal with a 0 indicator":       doc(" |0\n            a\n"),
		"literal over-indented first line": doc(" |\n              \n            a\n"),
		"merge key":                        strings.Replace(doc(" x"), "code: 200", "<<: {}", 1),
		"plain with a trailing space":      doc(" x "),
		"a lone dash":                      doc(" -"),
		"first line starts with a tab":     doc(" |\n            \ta\n"),
	}
	for name, text := range declined {
		if likeYAML(t, name, []byte(text)) {
			t.Errorf("%s: read by the fast path, want it left to yaml.v3:\n%s", name, text)
		}
	}
}

// answersFromInput decodes data again leaving the answers in the input
// (decodeVCR with spans), as a replay from a file does, and fails t unless
// each answer left there reads back as fast decoded it, whole and one byte
// at a time, and the rest of the cassette is decoded alike.
func answersFromInput(t *testing.T, name string, data []byte, fast *vcr.Cassette) {
	t.Helper()
	spans := map[int]*blockSpan{}
	var lazy vcr.Cassette
	if err := decodeVCR(bytes.NewReader(data), int64(len(data)), &lazy, spans); err != nil {
		t.Fatalf("%s: leaving the answers in the input: %v", name, err)
	}
	for n, span := range spans {
		want := fast.Interactions[n].Response.Body
		if lazy.Interactions[n].Response.Body != "" || span.size != int64(len(want)) {
			t.Fatalf("%s: answer %d left in the input with %d bytes decoded (%q) and a length of %d, want none and %d",
				name, n+1, len(lazy.Interactions[n].Response.Body), lazy.Interactions[n].Response.Body, span.size, len(want))
		}
		for _, oneByte := range []bool{false, true} {
			r := readAnswer(bytes.NewReader(data), name, n, span)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			got, err := io.ReadAll(r)
			if err != nil || string(got) != want {
				t.Fatalf("%s: answer %d read from the input (a byte at a time: %v): %q, %v; want %q", name, n+1, oneByte, got, err, want)
			}
		}
		lazy.Interactions[n].Response.Body = want
	}
	if diff := cmp.Diff(fast.Interactions, lazy.Interactions, cmpopts.IgnoreUnexported(vcr.Response{})); diff != "" || fast.Version != lazy.Version {
		t.Fatalf("%s: leaving the answers in the input decodes the rest otherwise (-in memory +left in the input):\n%s", name, diff)
	}
}
