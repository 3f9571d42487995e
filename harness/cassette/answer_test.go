package cassette

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// serveAll sends each recorded request of loaded, in order, through c and
// returns the answers it serves, each read whole or a byte at a time; it
// fails t on an error or a Content-Length other than the answer's length.
func serveAll(t *testing.T, c *Cassette, loaded *vcr.Cassette, oneByte bool) []string {
	t.Helper()
	var got []string
	for n, i := range loaded.Interactions {
		req, err := http.NewRequest(i.Request.Method, i.Request.URL, strings.NewReader(i.Request.Body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: request %d: %v", c.file, n+1, err)
		}
		var r io.Reader = resp.Body
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		b, err := io.ReadAll(r)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: answer %d: %v", c.file, n+1, err)
		}
		if resp.ContentLength != int64(len(b)) {
			t.Errorf("%s: answer %d: Content-Length %d for %d bytes", c.file, n+1, resp.ContentLength, len(b))
		}
		got = append(got, string(b))
	}
	return got
}

// TestAnswersFromEveryCassette: a replay opened from a file (Open) serves,
// for every interaction of every cassette in the repository (none lives in
// a testdata folder), the bytes Load decodes, read whole and a byte at a
// time, and it reads from the file every answer of a stream, holding none
// of them: those written as literal blocks, and the double-quoted ones of
// the CRLF quirks and of Gemini, whose events end in CRLF.
func TestAnswersFromEveryCassette(t *testing.T) {
	files, fromFile, inMemory := 0, 0, 0
	err := filepath.WalkDir(filepath.Join("..", "..", "cassettes"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		files++
		want, err := Load(path)
		if err != nil {
			return err
		}
		for _, oneByte := range []bool{false, true} {
			c, err := Open(path, ModeReplay, nil, Options{})
			if err != nil {
				return err
			}
			for n, i := range c.loaded.Interactions {
				inFile := c.answers != nil && c.answers.spans[n] != nil
				// yaml.v3 writes a string with line breaks as a literal
				// block, or double-quoted when a \r is in it; bytes that
				// are not UTF-8 (Bedrock's binary event stream) it writes
				// as !!binary, base64 that is decoded whole, into memory
				body := want.Interactions[n].Response.Body
				if strings.Contains(body, "\n") && utf8.ValidString(body) && (!inFile || i.Response.Body != "") {
					t.Errorf("%s: answer %d is held in memory, want it read from the file", path, n+1)
				}
				switch {
				case oneByte:
				case inFile:
					fromFile++
				default:
					inMemory++
				}
			}
			got := serveAll(t, c, want, oneByte)
			for n, i := range want.Interactions {
				if got[n] != i.Response.Body {
					t.Errorf("%s: answer %d (a byte at a time: %v) differs from the decoded one:\n got %q\nwant %q", path, n+1, oneByte, got[n], i.Response.Body)
				}
			}
			if err := c.Stop(); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 164 {
		t.Errorf("%d cassettes, want 164: update the count when cassettes are added", files)
	}
	t.Logf("%d answers of %d cassettes read from their files, %d held in memory", fromFile, files, inMemory)
}

// answerText is a cassette of two interactions whose answers are literal
// blocks; each answer's text is the body with its lines indented.
func answerText(bodies ...string) string {
	var b strings.Builder
	b.WriteString("---\nversion: 1\ninteractions:\n")
	for n, body := range bodies {
		b.WriteString(interactionYAML(`'{"n":`+string(rune('0'+n))+`}'`, "|-\n            "+strings.ReplaceAll(body, "\n", "\n            "), "200"))
	}
	return b.String()
}

// TestAnswerFileChanged: a replay serves what was decoded when its file is
// removed or renamed over (it stays open), and fails with ErrBadCassette,
// never other bytes, when the file changed in place: a size or a
// modification time that differ, or, with both as they were, bytes that
// no longer read as the same block or decode to another answer.
func TestAnswerFileChanged(t *testing.T) {
	bodies := []string{"data: {\"a\":1}\n\ndata: [DONE]", "data: {\"b\":2}\n\ndata: [DONE]"}
	text := answerText(bodies...)
	edit := func(old, new string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			t.Helper()
			if len(old) != len(new) || strings.Count(text, old) != 1 {
				t.Fatalf("the edit %q -> %q does not keep the size or is not found once", old, new)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(text, old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			// the time as it was, so that only the bytes tell
			if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
		want   string // the error; "" when the decoded answers are served
	}{
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"renamed over", func(t *testing.T, path string) {
			if err := os.WriteFile(path+".new", []byte(answerText("other", "other")), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"grown", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("\n"); err != nil {
				t.Fatal(err)
			}
		}, "(its size or modification time differ)"},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, int64(len(text)/2)); err != nil {
				t.Fatal(err)
			}
		}, "(its size or modification time differ)"},
		{"touched", func(t *testing.T, path string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}, "(its size or modification time differ)"},
		{"a tab in the indentation", edit("            data: {\"b\"", "\t           data: {\"b\""),
			"(its text no longer reads as the same block)"},
		{"a control character", edit("data: {\"b\"", "data: {\"\x01\""), "(its text no longer reads as the same block)"},
		{"lines made blank", edit("data: {\"b\":2}", "\n\n\n\n\n\n\n\n\n\n\n\n\n"), "(the answer it holds is not the one decoded)"},
		{"the block ends sooner", edit("            data: {\"b\"", "x           data: {\"b\""), "(the answer it holds is not the one decoded)"},
		{"other text", edit("data: {\"b\":2}", "data: {\"b\":3}"), "(the answer it holds is not the one decoded)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeCassette(t, text)
			want, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Open(path, ModeReplay, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Stop()
			if c.answers == nil || len(c.answers.spans) != 2 {
				t.Fatalf("answers left in the file: %+v, want 2", c.answers)
			}
			tc.change(t, path)
			if tc.want == "" {
				if got := serveAll(t, c, want, false); got[0] != bodies[0] || got[1] != bodies[1] {
					t.Errorf("served %q, want %q", got, bodies)
				}
				return
			}
			var served []string
			var failed error
			for _, i := range want.Interactions {
				got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", i.Request.Body)
				if err != nil {
					failed = err
					break
				}
				served = append(served, got)
			}
			for n, got := range served {
				if got != bodies[n] {
					t.Errorf("answer %d served as %q, want %q or an error", n+1, got, bodies[n])
				}
			}
			wantErr := "bad cassette: the file changed after it was loaded " + tc.want + ", so answer "
			if !errors.Is(failed, ErrBadCassette) || !strings.Contains(failed.Error(), wantErr) || !strings.Contains(failed.Error(), path) {
				t.Errorf("err = %v, want ErrBadCassette naming %s and saying %q", failed, path, wantErr)
			}
		})
	}
}

// TestAnswersCountTowardTheLimit: the answers a replay leaves in the file
// count toward AGENTVCR_MAX_CASSETTE_MB as those in memory do, with the
// same message, and are served whole under a higher limit.
func TestAnswersCountTowardTheLimit(t *testing.T) {
	body := strings.Repeat("data: x\n\n", 70<<10) // 0.62 MiB each
	path := writeCassette(t, answerText(body, body, body))
	t.Setenv(MaxBytesEnv, "1")
	_, err := Open(path, ModeReplay, nil, Options{})
	want := "its interactions expand to more than the limit of 1 MiB (YAML aliases count each time they are used; 2 of 3 interactions counted)"
	if !errors.Is(err, ErrBadCassette) || !strings.Contains(err.Error(), want) {
		t.Errorf("limit 1 MiB: err = %v", err)
	}
	t.Setenv(MaxBytesEnv, "2")
	c, err := Open(path, ModeReplay, nil, Options{})
	if err != nil {
		t.Fatalf("limit 2 MiB: %v", err)
	}
	if c.answers == nil || len(c.answers.spans) != 3 {
		t.Fatalf("answers left in the file: %+v, want 3", c.answers)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for n, got := range serveAll(t, c, loaded, false) {
		if got != strings.TrimSuffix(body, "\n\n") {
			t.Errorf("answer %d: %d bytes, want %d", n+1, len(got), len(body)-2)
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.answers.f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("after Stop, closing the file again: %v, want os.ErrClosed (Stop closes it)", err)
	}
}

// TestQuotedAnswerFileChanged: a double-quoted answer (as yaml.v3 writes a
// stream whose events end in CRLF) read from the file fails as a literal
// block does when its bytes changed in place, size and time kept: other
// text, or a quote that ends it sooner.
func TestQuotedAnswerFileChanged(t *testing.T) {
	text := doc(` "data: {\"a\":1}\r\n\r\ndata: [DONE]\r\n\r\n"`)
	for _, edit := range [][2]string{{`{\"a\":1}`, `{\"a\":2}`}, {`{\"a\":1}`, `{\"a\""1}`}} {
		path := writeCassette(t, text)
		c, err := Open(path, ModeReplay, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.answers == nil || len(c.answers.spans) != 1 || !c.answers.spans[0].quoted {
			t.Fatalf("answers left in the file: %+v, want the quoted one", c.answers)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(text, edit[0], edit[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", "{}")
		want := "bad cassette: the file changed after it was loaded (the answer it holds is not the one decoded), so answer 1"
		if !errors.Is(err, ErrBadCassette) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q -> %q: served %q, err = %v; want %q", edit[0], edit[1], got, err, want)
		}
		c.Stop()
	}
}
