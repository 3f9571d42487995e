package cassette

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
)

// Made-up credentials of each published shape (no real key), and for each
// a near miss: one character short, a wrong letter, or the name without
// the shape.
var keyShapeTests = []struct {
	name, key, nearMiss string
}{
	{"an Anthropic key (sk-ant-)", "sk-ant-api03-" + strings.Repeat("aB3_", 23) + "xAA", "sk-ant-api03-"},
	{"an OpenAI project key (sk-proj-)", "sk-proj-" + strings.Repeat("Zx9-", 12), "sk-proj-abc"},
	{"an sk- key", "sk-live-abcdefghijklmnopqrstuvwxyz0123", "sk-short-1234567"},
	{"a Google API key (AIza)", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K_L-mNoPqRsTu", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K_L-mNoPqRsT"},
	{"a Google OAuth token (ya29.)", "ya29.a0AfH6SMBx7-Qw3_rT9uVcK2lLmNoPq", "ya29.a0AfH6SMBx7"},
	{"an AWS access key id (AKIA, ASIA)", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPL"},
	{"an AWS access key id (AKIA, ASIA)", "ASIAY34FZKBOKMUTVV7A", "ASIAy34fzkbokmutvv7a"},
	{"an AWS secret access key", `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE`},
	{"an AWS secret access key", `{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`, `{"Note": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`},
	{"a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_)", "ghp_" + strings.Repeat("a1B2", 9), "ghp_" + strings.Repeat("a1B2", 9)[1:]},
	{"a GitHub token (ghp_, gho_, ghu_, ghs_, ghr_)", "ghs_" + strings.Repeat("Q7w8", 9), "ghx_" + strings.Repeat("Q7w8", 9)},
	{"a GitHub token (github_pat_)", "github_pat_11ABCDEFG0123456789abc_" + strings.Repeat("x1Y2z", 11) + "abcd", "github_pat_11ABCDEFG0123456789abc_" + strings.Repeat("x1Y2z", 11) + "abc"},
	{"a JWT (eyJ….eyJ….…)", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."},
}

// Each shape is found with no configured secret, wherever a recording
// carries it: in a body as written, joined across the deltas of a stream,
// and in a header whose name does not say it is a credential; its near miss
// is not.
func TestScanFindsKeyShapes(t *testing.T) {
	for _, tt := range keyShapeTests {
		for _, p := range keyPlaces {
			err := Secrets(nil).Scan([]*vcr.Interaction{p.carry(tt.key)})
			var se *SecretError
			if !errors.As(err, &se) {
				t.Errorf("%s in %s: err = %v, want a *SecretError", tt.key, p.where, err)
				continue
			}
			if diff := cmp.Diff([]string{tt.name + " in " + p.where}, se.Found); diff != "" {
				t.Errorf("%s: found (-want +got):\n%s", tt.key, diff)
			}
			if strings.Contains(err.Error(), tt.key) {
				t.Errorf("the error holds the key: %v", err)
			}
			if err := Secrets(nil).Scan([]*vcr.Interaction{p.carry(tt.nearMiss)}); err != nil {
				t.Errorf("the near miss %q in %s: %v", tt.nearMiss, p.where, err)
			}
		}
	}
}

// keyPlaces are the places of a recording TestScanFindsKeyShapes puts a
// credential in. A stream splits it after its eighth byte, so that neither
// piece has the shape on its own and only the joined text does.
var keyPlaces = []struct {
	where string
	carry func(key string) *vcr.Interaction
}{
	{"interaction 1 response body", func(key string) *vcr.Interaction {
		return &vcr.Interaction{Response: vcr.Response{Body: "you said " + key + " ok"}}
	}},
	{"interaction 1 response body (JSON text of $.candidates[].content.parts[].text)", func(key string) *vcr.Interaction {
		return &vcr.Interaction{Response: vcr.Response{Body: "data: " + geminiText(key[:8]) + "\n\ndata: " + geminiText(key[8:]) + "\n\n"}}
	}},
	{"interaction 1 headers", func(key string) *vcr.Interaction {
		return &vcr.Interaction{Request: vcr.Request{Headers: http.Header{"X-Client-Info": {key}}}}
	}},
}

func geminiText(s string) string {
	return `{"candidates":[{"content":{"parts":[{"text":` + jsonQuote(s) + `}]}}]}`
}

func jsonQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// A Google API key sent in a header that does not name a credential, and
// echoed back by the upstream, makes the recording fail closed: nothing is
// written, and the error says which shape and where, on the file's lines.
func TestRecordingRefusesEchoedGoogleKey(t *testing.T) {
	const key = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K_L-mNoPqRsTu"
	srv := echoHeaderGateway(t, "X-Client-Info")
	path := filepath.Join(t.TempDir(), "rec.yaml")
	c, err := Open(path, ModeRecord, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/v1beta/models/m:streamGenerateContent?alt=sse", strings.NewReader(`{}`))
	req.Header.Set("X-Client-Info", key)
	resp, err := c.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	err = c.Stop()
	want := "cassette " + path + ": a Google API key (AIza) on line 12; nothing was written: secret found in the saved cassette"
	if !errors.Is(err, ErrSecretInCassette) || err.Error() != want {
		t.Fatalf("Stop: err = %v\nwant %s", err, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cassette was written: %v", err)
	}
}

// echoHeaderGateway answers a Gemini stream that quotes the request's
// header name back in its text, as an upstream echoing what it was sent.
func echoHeaderGateway(t *testing.T, name string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", geminiText("you sent "+r.Header.Get(name)))
	}))
	t.Cleanup(srv.Close)
	return srv
}
