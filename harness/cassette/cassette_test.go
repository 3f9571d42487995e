package cassette

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"

	"github.com/agentvcr/agentvcr/harness/rechunk"
)

const testKey = "sk-test-0123456789abcdefABCDEF"

// sseServer is a tiny chat-completions stand-in: every answer is an SSE
// stream numbered by arrival, echoing the request's body length. It also
// sends the headers a real gateway sends, the key in a cookie among them.
type sseServer struct {
	mu sync.Mutex
	n  int
}

func (s *sseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Set-Cookie", "session="+testKey)
	w.Header().Set("X-Request-Id", fmt.Sprintf("req_%d", n))
	w.Header().Set("Openai-Organization", "org-secret")
	fmt.Fprintf(w, ": echo %s\n\n", r.Header.Get("Authorization"))
	fmt.Fprintf(w, "data: {\"reply\":%d,\"len\":%d,\"text\":\"你好\"}\r\n\r\ndata: [DONE]\n\n", n, len(body))
}

func startServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(&sseServer{})
	t.Cleanup(srv.Close)
	return srv
}

// post sends body to path with the headers a client sends, the key in the
// URL too, and returns the response body.
func post(t *testing.T, client *http.Client, base, path, body string) (string, error) {
	t.Helper()
	u := strings.Replace(base, "http://", "http://user:"+testKey+"@", 1) + path + "?api_key=" + testKey + "&api-version=2024-06-01"
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("X-Api-Key", testKey)
	req.Header.Set("Cookie", "k="+testKey)
	req.Header.Set("OpenAI-Organization", "org-secret")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// record records the bodies, in order, into dir/name.yaml and stops.
func record(t *testing.T, path string, bodies ...string) {
	t.Helper()
	srv := startServer(t)
	c, err := Open(path, ModeRecord, nil, Options{Secrets: []string{testKey}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", b); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

func openReplay(t *testing.T, path string, opts Options) *Cassette {
	t.Helper()
	c, err := Open(path, ModeReplay, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRecordRedactsEverySecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.yaml")
	record(t, path, `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{testKey, "sk-test", "org-secret", "user:", "Authorization", "X-Api-Key", "Cookie", "X-Request-Id", "Date"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("saved cassette contains %q:\n%s", leak, data)
		}
	}
	loaded, err := vcr.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	i := loaded.Interactions[0]
	got := map[string]any{
		"request headers":  i.Request.Headers,
		"response headers": i.Response.Headers,
		"url":              strings.TrimPrefix(i.Request.URL, strings.SplitN(i.Request.URL, "/v1", 2)[0]),
		"response body":    i.Response.Body,
		"duration":         i.Response.Duration.String(),
	}
	want := map[string]any{
		"request headers":  http.Header{"Accept": {"text/event-stream"}, "Content-Type": {"application/json"}},
		"response headers": http.Header{"Content-Type": {"text/event-stream"}},
		"url":              "/v1/chat/completions?api-version=2024-06-01&api_key=REDACTED",
		"response body":    ": echo Bearer REDACTED\n\ndata: {\"reply\":1,\"len\":71,\"text\":\"你好\"}\r\n\r\ndata: [DONE]\n\n",
		"duration":         "0s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("saved interaction (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(i.Request.URL, "http://127.0.0.1:") {
		t.Errorf("url %q lost its host or kept userinfo", i.Request.URL)
	}
}

func TestReRecordReplacesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "again.yaml")
	record(t, path, `{"a":1}`, `{"a":2}`)
	record(t, path, `{"a":3}`)
	loaded, err := vcr.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, i := range loaded.Interactions {
		bodies = append(bodies, i.Request.Body)
	}
	if diff := cmp.Diff([]string{`{"a":3}`}, bodies); diff != "" {
		t.Errorf("re-recorded cassette (-want +got):\n%s", diff)
	}
}

func TestReplayMatchesCanonicalBodiesInAnyOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "order.yaml")
	record(t, path, `{"model":"m","n":1}`, `{"model":"m","n":2.50}`)
	c := openReplay(t, path, Options{})
	tests := []struct{ reason, body, want string }{
		{"second recorded request first, keys reordered, spaces added", `{ "n": 2.50, "model": "m" }`, `"reply":2`},
		{"first recorded request second", "{\"n\":1,\n\"model\":\"m\"}", `"reply":1`},
	}
	for _, tt := range tests {
		got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", tt.body)
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: body %q does not contain %q", tt.reason, got, tt.want)
		}
	}
	if err := c.Stop(); err != nil {
		t.Errorf("Stop after using every interaction: %v", err)
	}
}

func TestReplayServesEachInteractionOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "twice.yaml")
	record(t, path, `{"q":"same"}`, `{"q":"same"}`)
	c := openReplay(t, path, Options{Name: "twice-scenario"})
	for _, want := range []string{`"reply":1`, `"reply":2`} {
		got, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"q":"same"}`)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, want) {
			t.Errorf("body %q does not contain %q", got, want)
		}
	}
	_, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions", `{"q":"same"}`)
	if !errors.Is(err, ErrReplayMiss) {
		t.Fatalf("third identical request: err = %v, want ErrReplayMiss", err)
	}
	var miss *MissError
	if !errors.As(err, &miss) {
		t.Fatalf("err %T is not a *MissError", err)
	}
	want := `scenario "twice-scenario": request 3 (POST /v1/chat/completions): no unused recorded interaction matches the request; all 2 recorded interactions were already used`
	if diff := cmp.Diff(want, miss.Error()); diff != "" {
		t.Errorf("miss text (-want +got):\n%s", diff)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

func TestReplayMissNamesRequestAndDiffsNearest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.yaml")
	record(t, path,
		`{"model":"m","messages":[{"role":"user","content":"fix the bug"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"fix the bug"},{"role":"tool","content":"1 match"}]}`,
		`{"other":"shape","x":[1,2,3]}`)
	c := openReplay(t, path, Options{})
	if _, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions",
		`{"messages":[{"content":"fix the bug","role":"user"}],"model":"m"}`); err != nil {
		t.Fatal(err)
	}
	_, err := post(t, c.Client(), "http://replay.invalid", "/v1/chat/completions",
		`{"model":"m","messages":[{"role":"user","content":"fix the bug"},{"role":"tool","content":"2 matches"}]}`)
	var miss *MissError
	if !errors.As(err, &miss) || !errors.Is(err, ErrReplayMiss) {
		t.Fatalf("err = %v, want a *MissError", err)
	}
	type view struct {
		Scenario      string
		Request       int
		Nearest       int
		Recorded      int
		Method, Path  string
		Minus, Plus   []string
		ErrorStartsOK bool
	}
	got := view{miss.Scenario, miss.Request, miss.Nearest, miss.Recorded, miss.Method, miss.Path,
		changed(miss.Diff, "-"), changed(miss.Diff, "+"),
		strings.HasPrefix(miss.Error(), `scenario "demo": request 2 (POST /v1/chat/completions): no unused recorded interaction matches the request; nearest unused is interaction 2 of 3 (-recorded +sent):`+"\n")}
	want := view{"demo", 2, 2, 3, "POST", "/v1/chat/completions",
		[]string{`"content": "1 match",`}, []string{`"content": "2 matches",`}, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("miss (-want +got):\n%s\nfull error:\n%v", diff, miss)
	}
	// The miss already says the conversation went differently: Stop does
	// not repeat it as unused interactions.
	if err := c.Stop(); err != nil {
		t.Errorf("Stop after a miss: %v, want nil", err)
	}
}

// changed returns the diff lines that start with sign, without the sign
// and the indentation (cmp.Diff indents with spaces or NBSPs at random).
func changed(diff, sign string) []string {
	var out []string
	for _, l := range strings.Split(diff, "\n") {
		l = strings.TrimLeft(l, " \u00a0\t")
		if !strings.HasPrefix(l, sign) {
			continue
		}
		out = append(out, strings.TrimSpace(strings.Trim(l[1:], " \u00a0\t")))
	}
	return out
}

func TestStopCatchesASecretThatSurvives(t *testing.T) {
	tests := []struct {
		reason, wantErr string
		secrets         []string
		bypass          bool
	}{
		{"redaction bypassed: the configured key is in headers, URL and body",
			"secret 1 on line", []string{testKey}, true},
		{"no secret configured: the key-shaped string is found by pattern",
			"an sk- key on line", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			srv := startServer(t)
			path := filepath.Join(t.TempDir(), "leak.yaml")
			c, err := Open(path, ModeRecord, nil, Options{Secrets: tt.secrets})
			if err != nil {
				t.Fatal(err)
			}
			if tt.bypass {
				c.redact = func(*vcr.Interaction) error { return nil }
			}
			if _, err := post(t, c.Client(), srv.URL, "/v1/chat/completions", `{}`); err != nil {
				t.Fatal(err)
			}
			err = c.Stop()
			if !errors.Is(err, ErrSecretInCassette) {
				t.Fatalf("Stop: err = %v, want ErrSecretInCassette", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q should say %q and never the key", err, tt.wantErr)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a leaking cassette was written: %v", err)
			}
		})
	}
}

func TestOpenAndStopErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(filepath.Join(dir, "missing"), ModeReplay, nil, Options{})
	if !errors.Is(err, vcr.ErrCassetteNotFound) {
		t.Errorf("replay of a missing file: err = %v, want vcr.ErrCassetteNotFound", err)
	}
	c, err := Open(filepath.Join(dir, "empty"), ModeRecord, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); !errors.Is(err, ErrEmptyRecording) {
		t.Errorf("empty recording: err = %v, want ErrEmptyRecording", err)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestReplayRechunksBodies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chunks.yaml")
	record(t, path, `{"a":1}`)
	c := openReplay(t, path, Options{Rechunk: rechunk.Cutter{Mode: rechunk.Bytes}})
	req, _ := http.NewRequest("POST", "http://replay.invalid/v1/chat/completions", strings.NewReader(`{"a":1}`))
	resp, err := c.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reads []int
	buf := make([]byte, 64)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			reads = append(reads, n)
		}
		if err != nil {
			break
		}
	}
	body := ": echo Bearer REDACTED\n\ndata: {\"reply\":1,\"len\":7,\"text\":\"你好\"}\r\n\r\ndata: [DONE]\n\n"
	if len(reads) != len(body) {
		t.Errorf("%d reads, want one per byte (%d)", len(reads), len(body))
	}
	for _, n := range reads {
		if n != 1 {
			t.Fatalf("a read returned %d bytes", n)
		}
	}
	if err := c.Stop(); err != nil {
		t.Error(err)
	}
}
