package cassette

import (
	"net/url"
	"strings"
)

// QuerySecrets returns the values of the secret-named query parameters of
// u ("key", "api_key", "access_token", ...: the ones a saved URL says
// REDACTED for), for a proxy that records traffic with keys it was never
// told: Gemini's clients may send their key as ?key= instead of
// x-goog-api-key, and a body that quotes it must be scrubbed too.
func QuerySecrets(u *url.URL) Secrets {
	var out Secrets
	for k, vs := range u.Query() {
		if !secretQueryParams[strings.ToLower(k)] {
			continue
		}
		for _, v := range vs {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}
