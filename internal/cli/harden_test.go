package cli

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const hardenKey = "sk-test-harden-0123456789abcdef"

const okTurn = "data: {\"choices\":[{\"delta\":{\"content\":\"done\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

// silentGateway accepts connections and never answers.
func silentGateway(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() { close(done); ln.Close() })
	return "http://" + ln.Addr().String()
}

// gatewayFunc serves h on loopback; stop ends handlers waiting on it.
func gatewayFunc(t *testing.T, h func(w http.ResponseWriter, r *http.Request, stop <-chan struct{})) string {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h(w, r, stop) }))
	t.Cleanup(func() { close(stop); srv.Close() })
	return srv.URL
}

// Live failures end in one line naming what happened and what to do; the
// timeouts name their flag. Each would hang, or print a Go error, before.
func TestLiveFailureMessages(t *testing.T) {
	t.Parallel() // it waits out its timeouts: let the others run meanwhile
	silent := silentGateway(t)
	stall := gatewayFunc(t, func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	})
	html := gatewayFunc(t, func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>Please sign in \x1b]0;owned\x07</body></html>")
	})
	azure := gatewayFunc(t, func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		if r.URL.RequestURI() != "/openai/v1/chat/completions?api-version=2024-10-21" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, okTurn)
	})
	tests := []struct {
		reason   string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"no headers: -header-timeout", []string{"-base-url", silent + "/v1", "-header-timeout", "200ms", "-retries", "0"}, 1, "",
			"agentvcr run: no response headers from " + silent + "/v1/chat/completions within 200ms (-header-timeout 200ms): check -base-url and the gateway, or raise -header-timeout\n"},
		{"headers, then silence: -idle-timeout", []string{"-base-url", stall + "/v1", "-idle-timeout", "300ms"}, 1, "",
			"agentvcr run: the stream stalled: no event for 300ms (-idle-timeout 300ms): run again, or raise -idle-timeout for a model that thinks long before it answers\n"},
		{"an HTML page instead of a stream, its controls escaped", []string{"-base-url", html + "/v1"}, 1, "",
			`agentvcr run: the gateway answered with Content-Type text/html, not an event stream; the body starts: <html><body>Please sign in \x1b]0;owned\x07</body></html>: check -base-url (` + html + `/v1/chat/completions); it must be the root of an OpenAI-compatible API, usually ending in /v1` + "\n"},
		{"a base URL with credentials is never echoed", []string{"-base-url", "http://me:hunter2-password@127.0.0.1:1/v1", "-retries", "0"}, 1, "",
			"agentvcr run: cannot reach the gateway at http://127.0.0.1:1/v1/chat/completions (connect: connection refused): check -base-url or OPENAI_BASE_URL and the network\n"},
		{"an Azure base URL with a query", []string{"-base-url", azure + "/openai/v1?api-version=2024-10-21"}, 0, "done\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			args := append([]string{"run", "-C", t.TempDir(), "-model", "m"}, tt.args...)
			code, stdout, stderr := runIn(t.TempDir(), map[string]string{"OPENAI_API_KEY": hardenKey}, args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (after %v)", code, tt.wantCode, time.Since(start))
			}
			if diff := cmp.Diff(tt.wantOut, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErr, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// Bad cassettes and cassettes asked for in the wrong locale say what is
// wrong and what to do.
func TestReplayBadCassetteMessages(t *testing.T) {
	dir := t.TempDir()
	v2 := "---\nversion: 2\ninteractions:\n    - request:\n        body: '{}'\n        url: http://x/v1/chat/completions\n        method: POST\n      response:\n        code: 200\n"
	if err := os.WriteFile(filepath.Join(dir, "v2.yaml"), []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		args   []string
		want   string
	}{
		{"a version 2 cassette", []string{"-cassette", "v2.yaml"},
			"agentvcr run: cassette " + filepath.Join(dir, "v2.yaml") + ": bad cassette: format version 2, agentvcr replays version 1 only: it was written by go-vcr v3 or later, whose format go-vcr v2.1.0 cannot replay; re-record it with agentvcr run ... -record PATH\n"},
		{"a quirk cassette in English", []string{"-lang", "en", "-cassette", "quirks/demo.crlf"},
			"agentvcr run: the embedded cassette \"quirks/demo.crlf\" is recorded in zh only (no quirks/demo.crlf.en.yaml): run it with -lang zh\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runIn(dir, nil, append([]string{"run"}, tt.args...)...)
		if code != 1 || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q", tt.reason, code, stdout)
		}
		if diff := cmp.Diff(tt.want, stderr); diff != "" {
			t.Errorf("%s: stderr (-want +got):\n%s", tt.reason, diff)
		}
	}
}

// Escape sequences in the model's text and in a tool's result never reach
// the terminal raw: the cards show them escaped.
func TestCardsEscapeControls(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "evil.txt"), []byte("\x1b[2J\x1b]0;pwned\x07hello\u009b31m\u202etxt.exe\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	turn1 := `data: {"choices":[{"delta":{"content":"look \u001b[31mred\u001b[0m \u0007","tool_calls":[{"index":0,"id":"c1","function":{"name":"grep","arguments":"{\"pattern\":\"hello\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n"
	turn2 := `data: {"choices":[{"delta":{"content":"line one\r\nline two\u009b2J"},"finish_reason":"stop"}]}` + "\n\n"
	for i, turn := range []string{turn1, turn2} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%d.sse", i+1)), []byte(turn), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runIn(dir, nil, "run", "-lang", "en", "-C", "ws", "-sse", "t1.sse", "-sse", "t2.sse")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `look \x1b[31mred\x1b[0m \x07
⚙ grep({"pattern":"hello"})
✔ grep fed back `
	if !strings.HasPrefix(stdout, want) {
		t.Errorf("stdout starts (-want +got):\n%s", cmp.Diff(want, stdout[:min(len(stdout), len(want))]))
	}
	if !strings.Contains(stdout, `\x1b[2J\x1b]0;pwned\x07hello\u009b31m\u202etxt.exe`) {
		t.Errorf("the result line does not show the file's controls escaped:\n%s", stdout)
	}
	if !strings.HasSuffix(stdout, "line one\nline two\\u009b2J\n") {
		t.Errorf("the last text is not escaped:\n%q", stdout)
	}
	for _, raw := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\r"} {
		if strings.Contains(stdout, raw) {
			t.Errorf("stdout holds a raw %q:\n%q", raw, stdout)
		}
	}
}

// -record against a gateway that echoes the key back: escaped, URL-encoded
// and base64 forms are redacted and the run succeeds with a clean cassette;
// a key split across two stream deltas cannot be rewritten, so the run fails
// and nothing is written.
func TestRecordEchoedKey(t *testing.T) {
	gw := gatewayFunc(t, func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "text/event-stream")
		var content string
		switch r.URL.Path {
		case "/split/v1/chat/completions":
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"key %s\"}}]}\n\n", key[:12])
			content = key[12:]
		case "/escaped/v1/chat/completions":
			content = `\u0073` + key[1:]
		case "/urlencoded/v1/chat/completions":
			content = "https://x.test/?k=" + url.QueryEscape(key)
		case "/base64/v1/chat/completions":
			content = base64.StdEncoding.EncodeToString([]byte("me:" + key))
		}
		fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", content)
	})
	for _, form := range []string{"split", "escaped", "urlencoded", "base64"} {
		t.Run(form, func(t *testing.T) {
			dir := t.TempDir()
			code, _, stderr := runIn(dir, map[string]string{"OPENAI_API_KEY": hardenKey},
				"run", "-C", dir, "-model", "m", "-base-url", gw+"/"+form+"/v1", "-record", "rec.yaml", "hi")
			data, readErr := os.ReadFile(filepath.Join(dir, "rec.yaml"))
			if form == "split" {
				want := "agentvcr run: cassette " + filepath.Join(dir, "rec.yaml") + ": secret 1 in interaction 1 response body (JSON text of $.choices[]#0.delta.content); nothing was written: secret found in the saved cassette\n"
				if code != 1 || stderr != want {
					t.Errorf("exit %d, stderr (-want +got):\n%s", code, cmp.Diff(want, stderr))
				}
				if readErr == nil {
					t.Errorf("a cassette was written:\n%s", data)
				}
				return
			}
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if readErr != nil {
				t.Fatal(readErr)
			}
			for _, leak := range []string{hardenKey, hardenKey[3:], url.QueryEscape(hardenKey), `\u0073` + hardenKey[1:], base64.StdEncoding.EncodeToString([]byte("me:" + hardenKey))[4:30]} {
				if strings.Contains(string(data), leak) {
					t.Errorf("the cassette holds %q", leak)
				}
			}
		})
	}
}
