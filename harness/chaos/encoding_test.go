package chaos_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentvcr/agentvcr/harness/cassette"
	"github.com/agentvcr/agentvcr/harness/chaos"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/record"
)

// cleanAnswer is the stream every shape of encodedUpstream sends.
const cleanAnswer = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"

// encodings are the shapes of encodedUpstream: Content-Type and
// Content-Encoding as sent, and how the bytes are encoded.
var encodings = map[string]struct {
	contentType, contentEncoding string
	encode                       func(io.Writer) io.WriteCloser
}{
	"identity":    {"text/event-stream", "identity", nil},
	"mixed-case":  {"Text/Event-Stream; charset=UTF-8", "", nil},
	"gzip":        {"text/event-stream", "gzip", func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) }},
	"deflate":     {"text/event-stream", "deflate", func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) }},
	"raw-deflate": {"text/event-stream", "Deflate", func(w io.Writer) io.WriteCloser { z, _ := flate.NewWriter(w, 5); return z }},
	"br":          {"text/event-stream", "br", nil},
	"zstd":        {"text/event-stream; charset=utf-8", "zstd", nil},
	"gzip-br":     {"text/event-stream", "gzip, br", nil},
}

// encodedUpstream answers POST /v1/chat/completions?shape=SHAPE with cleanAnswer in that shape
// (br and zstd are only named: the proxy must not touch their bytes).
func encodedUpstream(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e := encodings[r.URL.Query().Get("shape")]
		w.Header().Set("Content-Type", e.contentType)
		if e.contentEncoding != "" {
			w.Header().Set("Content-Encoding", e.contentEncoding)
		}
		if e.encode == nil {
			io.WriteString(w, cleanAnswer)
			return
		}
		z := e.encode(w)
		io.WriteString(z, cleanAnswer)
		z.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// decoded undoes the encoding a test shape names.
func decoded(t *testing.T, shape string, body []byte) string {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	var err error
	switch shape {
	case "gzip":
		r, err = gzip.NewReader(r)
	case "deflate":
		r, err = zlib.NewReader(r)
	case "raw-deflate":
		r = flate.NewReader(r)
	}
	if err != nil {
		t.Fatalf("%s: %v", shape, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", shape, err)
	}
	return string(out)
}

// Every event stream is rewritten, whatever the case and parameters of its
// Content-Type and in every Content-Encoding the proxy can decode
// (identity, gzip as it came, deflate in the zlib form and raw), and sent
// in the encoding it came in; one it cannot decode (br, zstd, two codings)
// passes as it came, with a line on the log that says so, and
// Unrewritten counts it. (Before, identity, a mixed-case Content-Type and
// every encoded stream passed unbroken, and nothing said so.)
func TestProxyRewritesEveryEventStream(t *testing.T) {
	up := encodedUpstream(t)
	crlf, _ := quirk.ByName("crlf")
	broken, err := crlf.Apply([]byte(cleanAnswer), 1)
	if err != nil {
		t.Fatal(err)
	}
	var log lockedLog
	// The upstream's gzip reaches the proxy as it was sent (its transport
	// asks for no encoding, so decodes none).
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, err := record.NewProxy(up+"/v1", path, &http.Transport{DisableCompression: true}, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&chaos.Chaos{Quirk: &crlf, Seed: 1}).Handler(p))
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}} // the test decodes
	var wantLog []string
	for _, shape := range []string{"identity", "mixed-case", "gzip", "deflate", "raw-deflate", "br", "zstd", "gzip-br"} {
		resp, err := client.Post(srv.URL+"/v1/chat/completions?shape="+shape, "application/json", strings.NewReader(`{"stream":true}`))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", shape, err)
		}
		e := encodings[shape]
		if got := resp.Header.Get("Content-Encoding"); got != e.contentEncoding {
			t.Errorf("%s: Content-Encoding %q, want %q as the upstream sent", shape, got, e.contentEncoding)
		}
		want, unrewritable := string(broken), false
		switch shape {
		case "br", "zstd", "gzip-br":
			want, unrewritable = cleanAnswer, true
		}
		if got := decoded(t, shape, body); got != want {
			t.Errorf("%s: the client got %q, want %q", shape, got, want)
		}
		if unrewritable {
			// the recording decodes the gzip and stops at br
			coding, recordCoding := e.contentEncoding, e.contentEncoding
			if shape == "gzip-br" {
				recordCoding = "br"
			}
			shown := "POST " + up + "/v1/chat/completions?shape=" + shape
			wantLog = append(wantLog, "agentvcr: "+shown+": Content-Encoding \""+coding+
				"\": the proxy cannot decode this Content-Encoding, so it cannot rewrite the answer: the answer passes as it came, not broken",
				"agentvcr record: "+shown+": the answer: Content-Encoding \""+recordCoding+
					`": agentvcr record decodes only gzip and deflate, so it cannot scan this body for secrets (passed on, not recorded)`)
		}
	}
	srv.Close()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	// What is recorded is what the client got, decoded: every rewritten
	// answer, broken (the encoder's end was written), and none of the others.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := cassette.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, i := range rec.Interactions {
		if i.Response.Body != string(broken) {
			t.Errorf("%s: recorded %q, want %q", i.Request.URL, i.Response.Body, broken)
		}
		recorded = append(recorded, strings.TrimPrefix(i.Request.URL, up+"/v1/chat/completions?shape="))
	}
	if got, want := strings.Join(recorded, " "), "identity mixed-case gzip deflate raw-deflate"; got != want {
		t.Errorf("recorded %s, want %s", got, want)
	}
	if got, want := log.String(), strings.Join(wantLog, "\n")+"\n"; got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
	if n := p.Unrewritten(); n != 3 {
		t.Errorf("Unrewritten() = %d, want 3", n)
	}
}
