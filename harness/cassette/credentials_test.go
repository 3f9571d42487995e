package cassette

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHeaderSecretsByAnyCommonName(t *testing.T) {
	h := http.Header{}
	h.Set("Ocp-Apim-Subscription-Key", "apim-subscription-0123")
	h.Set("x-goog-api-key", "AIzaSy-goog-header-key")
	h.Set("X-Portkey-Api-Key", "pk-portkey-0123456")
	h.Set("X-Session-Token", "short") // under MinGuessedSecret: not guessed
	h.Set("Idempotency-Key", "idem-0123456789")
	h.Set("Content-Type", "application/json")
	h.Set("Anthropic-Version", "2023-06-01")
	want := Secrets{"AIzaSy-goog-header-key", "apim-subscription-0123", "idem-0123456789", "pk-portkey-0123456"}
	if diff := cmp.Diff(want, HeaderSecrets(h)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestURLSecrets(t *testing.T) {
	tests := []struct {
		url  string
		want Secrets
	}{
		{"https://me:pw-secret-1@gw.example/v1", Secrets{"pw-secret-1", "me:pw-secret-1", "bWU6cHctc2VjcmV0LTE="}},
		{"https://sk-userinfo-key-0123@gw.example/v1", Secrets{"sk-userinfo-key-0123"}},
		{"https://gw.example/v1beta/models/m:streamGenerateContent?alt=sse&key=AIzaSy-query-key-0123", Secrets{"AIzaSy-query-key-0123"}},
		{"https://gw.example/v1?api-version=2024-02-01&token=tiny", nil},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, URLSecrets(u)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.url, diff)
		}
	}
}

func TestRedactURL(t *testing.T) {
	s := Secrets{"pw-secret-1"}
	got := s.RedactURL("https://me:pw-secret-1@gw.example/v1/x?key=AIzaSy-query-key-0123&api-version=2024-02-01&q=pw-secret-1")
	want := "https://gw.example/v1/x?api-version=2024-02-01&key=REDACTED&q=REDACTED"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
