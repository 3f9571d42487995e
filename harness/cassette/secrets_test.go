package cassette

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
)

const echoKey = "sk-echo-0123456789abcdefghijKLMNOP"

// jsonEscapeAll writes s as a JSON string literal with every rune \u-escaped.
func jsonEscapeAll(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestScrubDecodedForms(t *testing.T) {
	b64 := func(prefix string, enc *base64.Encoding) string {
		return enc.EncodeToString([]byte(prefix + echoKey + "!tail"))
	}
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"as written", "key " + echoKey + " end", "key REDACTED end"},
		{"JSON-escaped in a stream event", `data: {"choices":[{"delta":{"content":"key ` + `\u0073k-echo-0123456789abcdefghijKLMNOP"}}]}` + "\n\n",
			`data: {"choices":[{"delta":{"content":"key REDACTED"}}]}` + "\n\n"},
		{"every rune escaped, CRLF kept", "data: {\"c\":" + jsonEscapeAll(echoKey) + "}\r\n\r\n", "data: {\"c\":\"REDACTED\"}\r\n\r\n"},
		{"JSON-escaped in a JSON body, other bytes kept", `{"b":"\u00e9", "m":[{"content":"x\u0073k-echo-0123456789abcdefghijKLMNOP"}] }`,
			`{"b":"\u00e9", "m":[{"content":"xREDACTED"}] }`},
		{"URL query-escaped", "u=" + url.QueryEscape(echoKey+"/+"), "u=REDACTED%2F%2B"},
		{"base64, aligned", "b " + base64.StdEncoding.EncodeToString([]byte(echoKey)), ""},
		{"base64 after one byte", "b " + b64("a", base64.StdEncoding), ""},
		{"base64 after two bytes, URL alphabet", "b " + b64("ab", base64.URLEncoding), ""},
		{"no secret: bytes untouched, escapes and all", `data: {"c":"\u00e9\n"}` + "\n", `data: {"c":"\u00e9\n"}` + "\n"},
	}
	s := Secrets{"", echoKey}
	for _, tt := range tests {
		got := s.Scrub(tt.in)
		if tt.want == "" {
			// base64: the core of the key is replaced; no form of the key is left.
			if !strings.Contains(got, redacted) {
				t.Errorf("%s: nothing replaced in %q", tt.reason, got)
			}
		} else if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.reason, diff)
		}
		if err := s.Scan([]*vcr.Interaction{{Response: vcr.Response{Body: got}}}); err != nil {
			t.Errorf("%s: the scrubbed text still fails the scan: %v", tt.reason, err)
		}
		if err := s.Scan([]*vcr.Interaction{{Response: vcr.Response{Body: tt.in}}}); tt.in != tt.want && !errors.Is(err, ErrSecretInCassette) {
			t.Errorf("%s: the scan misses the unscrubbed text: %v", tt.reason, err)
		}
	}
}

// What redaction cannot rewrite is found by the scan: a key split across
// two stream deltas, partly percent-encoded, or in base64 in a header.
func TestScanFindsWhatScrubCannotRewrite(t *testing.T) {
	half := len(echoKey) / 2
	tests := []struct {
		reason string
		i      vcr.Interaction
		want   string
	}{
		{"split across two content deltas, other chunks between",
			vcr.Interaction{Response: vcr.Response{Body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"my key is " + echoKey[:half] + "\"}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + echoKey[half:] + "\"}}]}\n\ndata: [DONE]\n\n"}},
			"secret 1 in interaction 1 response body (JSON text of $.choices[]#0.delta.content)"},
		{"split across two tool-call argument pieces",
			vcr.Interaction{Response: vcr.Response{Body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{\\\"k\\\":\\\"" + echoKey[:3] + "\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"" + echoKey[3:] + "\\\"}\"}}]}}]}\n\n"}},
			"secret 1 in interaction 1 response body (JSON text of $.choices[]#0.delta.tool_calls[]#1.function.arguments)"},
		{"partly percent-encoded in a URL",
			vcr.Interaction{Request: vcr.Request{URL: "https://gw.example/v1?x=%73" + echoKey[1:]}},
			"secret 1 in interaction 1 request URL (URL-decoded)"},
		{"base64 in a kept header",
			vcr.Interaction{Response: vcr.Response{Headers: http.Header{"Content-Type": {"text/plain; x=" + base64.StdEncoding.EncodeToString([]byte("u:"+echoKey))}}}},
			"secret 1 in interaction 1 headers"},
		{"an unconfigured sk- key split across deltas",
			vcr.Interaction{Response: vcr.Response{Body: "data: {\"choices\":[{\"delta\":{\"content\":\"sk-proj-abcd\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"efghijklmnopqrstuv\"}}]}\n\n"}},
			"an OpenAI project key (sk-proj-) in interaction 1 response body (JSON text of $.choices[].delta.content)"},
	}
	for _, tt := range tests {
		s := Secrets{echoKey}
		if strings.HasPrefix(tt.reason, "an unconfigured") {
			s = nil
		}
		err := s.Scan([]*vcr.Interaction{&tt.i})
		var se *SecretError
		if !errors.As(err, &se) || !errors.Is(err, ErrSecretInCassette) {
			t.Fatalf("%s: err = %v, want a *SecretError", tt.reason, err)
		}
		if diff := cmp.Diff([]string{tt.want}, se.Found); diff != "" {
			t.Errorf("%s: found (-want +got):\n%s", tt.reason, diff)
		}
		if strings.Contains(err.Error(), echoKey) || strings.Contains(err.Error(), echoKey[:half]) {
			t.Errorf("%s: the error holds the key: %v", tt.reason, err)
		}
	}
}

func TestHeaderSecrets(t *testing.T) {
	h := http.Header{
		"Authorization": {"Bearer sk-bearer-123"},
		"X-Api-Key":     {"anthropic-key"},
		"Api-Key":       {"azure-key"},
		"Content-Type":  {"application/json"},
	}
	h.Add("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("me:pw-secret")))
	want := Secrets{"Bearer sk-bearer-123", "sk-bearer-123", "Basic bWU6cHctc2VjcmV0", "bWU6cHctc2VjcmV0", "me:pw-secret", "pw-secret", "anthropic-key", "azure-key"}
	if diff := cmp.Diff(want, HeaderSecrets(h)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// echoGateway answers every request with a stream that echoes the key it
// was sent in the form the path names.
func echoGateway(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "text/event-stream")
		event := func(content string) {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", content)
		}
		switch r.URL.Path {
		case "/split/chat/completions":
			event(`"your key: ` + key[:10] + `"`)
			event(`"` + key[10:] + `"`)
		case "/escaped/chat/completions":
			event(jsonEscapeAll("your key: " + key))
		case "/urlencoded/chat/completions":
			event(`"https://x.example/?k=` + url.QueryEscape(key) + `"`)
		case "/base64/chat/completions":
			event(`"` + base64.StdEncoding.EncodeToString([]byte("user:"+key)) + `"`)
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Recording a gateway that echoes the key: escaped, URL-encoded and base64
// forms are redacted and the cassette is written without any form of the
// key; a key split across two deltas cannot be rewritten, so the recording
// fails closed and nothing is written.
func TestRecordingEchoedKey(t *testing.T) {
	srv := echoGateway(t)
	for _, form := range []string{"split", "escaped", "urlencoded", "base64"} {
		t.Run(form, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rec.yaml")
			c, err := Open(path, ModeRecord, nil, Options{Secrets: []string{echoKey}})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest("POST", srv.URL+"/"+form+"/chat/completions", strings.NewReader(`{"model":"m"}`))
			req.Header.Set("Authorization", "Bearer "+echoKey)
			resp, err := c.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			err = c.Stop()
			if form == "split" {
				if !errors.Is(err, ErrSecretInCassette) || !strings.Contains(err.Error(), "secret 1 in interaction 1 response body (JSON text of $.choices[]#0.delta.content); nothing was written") {
					t.Fatalf("Stop: err = %v, want the split key found", err)
				}
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a cassette was written: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Stop: %v", err)
			}
			if err := (Secrets{echoKey}).ScanFile(path); err != nil {
				t.Errorf("the written cassette holds the key: %v", err)
			}
			data, _ := os.ReadFile(path)
			if !strings.Contains(string(data), redacted) {
				t.Errorf("nothing redacted:\n%s", data)
			}
		})
	}
}
