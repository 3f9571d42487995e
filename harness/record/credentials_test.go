package record

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// noKeyOnDisk fails the test for every file under dir that holds a key.
func noKeyOnDisk(t *testing.T, dir string, keys ...string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		for _, key := range keys {
			if bytes.Contains(data, []byte(key)) {
				t.Errorf("%s holds the key %s", path, key)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every credential a request carries is a secret of the recording, however
// it travels: a Gemini-style ?key=, custom key headers, the upstream URL's
// userinfo. The upstream echoes them all, in a 404 body and in a 200
// stream (each was once written to the cassette).
func TestRecordingProxyKeepsEveryCredentialOffDisk(t *testing.T) {
	const (
		queryKey = "AIzaSy-test-query-key-0123456789"
		apimKey  = "apim-test-subscription-key-42"
		googKey  = "AIzaSy-test-goog-header-key-77"
		password = "pw-test-upstream-userinfo-9"
	)
	var gotAuth string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pw, _ := r.BasicAuth()
		gotAuth = pw
		echo := fmt.Sprintf("key=%s apim=%s goog=%s pw=%s", r.URL.Query().Get("key"), r.Header.Get("Ocp-Apim-Subscription-Key"), r.Header.Get("X-Goog-Api-Key"), pw)
		if strings.HasSuffix(r.URL.Path, "/missing") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"error":{"message":%q}}`, echo)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\ndata: [DONE]\n\n", echo)
	}))
	defer upstream.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	p, base, stop := proxyOn(t, strings.Replace(upstream.URL, "http://", "http://gemini:"+password+"@", 1)+"/v1", path)
	for _, endpoint := range []string{"/chat/completions", "/missing"} {
		req, _ := http.NewRequest(http.MethodPost, base+endpoint+"?alt=sse&key="+queryKey, strings.NewReader(`{"model":"m"}`))
		req.Header.Set("Ocp-Apim-Subscription-Key", apimKey)
		req.Header.Set("x-goog-api-key", googKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if gotAuth != password {
		t.Errorf("the upstream got basic auth password %q, want the upstream URL's", gotAuth)
	}
	noKeyOnDisk(t, dir, queryKey, apimKey, googKey, password)
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "key=REDACTED apim=REDACTED goog=REDACTED pw=REDACTED"); n != 2 {
		t.Errorf("%d redacted echoes, want 2:\n%s", n, data)
	}
}

// The client gets the upstream's answer as it was sent, Content-Encoding
// and all; the recording holds the decoded body, scanned (a deflate
// body once kept its key and lost its Content-Encoding). A request body
// the client compressed reaches the upstream as it was sent.
func TestRecordingProxyPassesContentEncodingAndScansTheDecodedBody(t *testing.T) {
	const key = "sk-test-deflate-0123456789abcdef"
	stream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"echo " + key + "\"}}]}\n\ndata: [DONE]\n\n"
	var deflated bytes.Buffer
	zw := zlib.NewWriter(&deflated)
	io.WriteString(zw, stream)
	zw.Close()
	var gotEncoding string
	var gotBody []byte
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotEncoding = r.Header.Get("Content-Encoding")
		gotBody, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "deflate")
		w.Write(deflated.Bytes())
	}))
	defer upstream.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	p, base, stop := proxyOn(t, upstream.URL+"/v1", path)
	var zipped bytes.Buffer
	gz := gzip.NewWriter(&zipped)
	io.WriteString(gz, `{"model":"m","stream":true}`)
	gz.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/chat/completions", bytes.NewReader(zipped.Bytes()))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "deflate" || !bytes.Equal(got, deflated.Bytes()) {
		t.Errorf("the client got Content-Encoding %q and %d bytes, want deflate and the upstream's %d bytes", resp.Header.Get("Content-Encoding"), len(got), deflated.Len())
	}
	if gotEncoding != "gzip" || !bytes.Equal(gotBody, zipped.Bytes()) {
		t.Errorf("the upstream got Content-Encoding %q and %d bytes, want gzip and the client's %d bytes", gotEncoding, len(gotBody), zipped.Len())
	}
	stop()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	noKeyOnDisk(t, dir, key)
	c := decodeSaved(t, mustRead(t, path))
	wantAnswer := strings.Replace(stream, key, "REDACTED", 1)
	if i := c.Interactions[0]; i.Request.Body != `{"model":"m","stream":true}` || i.Response.Body != wantAnswer {
		t.Errorf("recorded request %q, answer %q\nwant the decoded bodies", i.Request.Body, i.Response.Body)
	}
}

// A body in an encoding the proxy cannot decode (br, zstd) reaches the
// client as sent and is not recorded, with a line that says why.
func TestRecordingProxyRefusesToRecordWhatItCannotScan(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "br")
		io.WriteString(w, "\x0b\x02\x80opaque")
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	var log syncBuffer
	p, err := NewProxy(upstream.URL+"/v1", path, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	srv.Close()
	if resp.Header.Get("Content-Encoding") != "br" || string(got) != "\x0b\x02\x80opaque" {
		t.Errorf("the client got %q %q, want the upstream's br bytes", resp.Header.Get("Content-Encoding"), got)
	}
	want := "agentvcr record: POST " + upstream.URL + `/v1/chat/completions: the answer: Content-Encoding "br": ` + ErrUnscannableEncoding.Error() + " (passed on, not recorded)\n"
	if log.String() != want {
		t.Errorf("log %q\nwant %q", log.String(), want)
	}
	if p.Recorded() != 0 || p.Stop() == nil {
		t.Errorf("recorded %d, want nothing", p.Recorded())
	}
}

// Neither the upstream's userinfo nor a client's ?key= is printed, on the
// log or in the 502 body (both once were).
func TestRecordingProxyPrintsNoCredential(t *testing.T) {
	const (
		password = "pw-test-never-printed-0123"
		queryKey = "AIzaSy-test-never-printed-4567"
	)
	path := filepath.Join(t.TempDir(), "rec.yaml")
	var log syncBuffer
	p, err := NewProxy("http://user:"+password+"@127.0.0.1:1/v1", path, nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/chat/completions?key="+queryKey, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for what, text := range map[string]string{"502 body": string(body), "log": log.String()} {
		if strings.Contains(text, password) || strings.Contains(text, queryKey) || strings.Contains(text, "user:") {
			t.Errorf("the %s holds a credential: %s", what, text)
		}
		if !strings.Contains(text, "http://127.0.0.1:1/v1/chat/completions?key=REDACTED") {
			t.Errorf("the %s does not name the upstream: %s", what, text)
		}
	}
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("status %d, want 502", resp.StatusCode)
	}
	if _, err := NewProxy("ftp://user:"+password+"@x/v1", path, nil, nil); err == nil || strings.Contains(err.Error(), password) {
		t.Errorf("NewProxy: %v", err)
	}
}

// The upstream's own query (Azure's ?api-version=) is kept on every
// request, before the client's (it was once dropped).
func TestRecordingProxyKeepsTheUpstreamQuery(t *testing.T) {
	var got string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + "?" + r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	defer upstream.Close()
	path := filepath.Join(t.TempDir(), "rec.yaml")
	p, base, stop := proxyOn(t, upstream.URL+"/openai/deployments/d?api-version=2024-02-01", path)
	defer p.Stop()
	defer stop()
	resp, err := http.Post(base+"/chat/completions?x=1", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "/openai/deployments/d/chat/completions?api-version=2024-02-01&x=1"; got != want {
		t.Errorf("the upstream got %s, want %s", got, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// syncBuffer is a log the proxy's handlers write while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
