package cassette

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// The credentials a request carries, by where they travel. A recording
// proxy makes each a secret of its recording (a Gemini ?key=, an
// Ocp-Apim-Subscription-Key and an x-goog-api-key, echoed by the upstream,
// were once written to the cassette).

// authHeaders are the headers whose whole value is a credential, whatever
// its length.
var authHeaders = []string{"Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Goog-Api-Key",
	"Ocp-Apim-Subscription-Key", "X-Auth-Token", "X-Access-Token", "Anthropic-Api-Key", "Openai-Api-Key"}

// credentialWords mark a header of another name as a credential: any name
// holding one (X-Custom-Api-Key, X-Portkey-Api-Key, X-Session-Token).
var credentialWords = []string{"key", "token", "secret", "auth", "password", "credential", "signature"}

// MinGuessedSecret is the shortest value taken as a secret when only its
// name says it may be one (a header named like a credential, a query
// parameter named key or token): shorter values ("1", "true") would be
// scrubbed wherever they appear.
const MinGuessedSecret = 8

// HeaderSecrets returns the credentials a request carries in its headers,
// for a proxy that records traffic with keys it was never told: the whole
// value of every Authorization, Proxy-Authorization, X-Api-Key, Api-Key,
// X-Goog-Api-Key, Ocp-Apim-Subscription-Key, X-Auth-Token, X-Access-Token,
// Anthropic-Api-Key and Openai-Api-Key header, then of every other header
// whose name holds key, token, secret, auth, password, credential or
// signature (values of at least MinGuessedSecret bytes, names sorted); for a
// value with a scheme ("Bearer KEY"), the part after it; for Basic, the
// decoded "user:password" and the password.
func HeaderSecrets(h http.Header) Secrets {
	var out Secrets
	for _, name := range authHeaders {
		for _, v := range h.Values(name) {
			out = appendCredential(out, v)
		}
	}
	var guessed []string
	for name := range h {
		lower := strings.ToLower(name)
		if slices.ContainsFunc(authHeaders, func(a string) bool { return strings.EqualFold(a, name) }) {
			continue
		}
		if slices.ContainsFunc(credentialWords, func(w string) bool { return strings.Contains(lower, w) }) {
			guessed = append(guessed, name)
		}
	}
	slices.Sort(guessed)
	for _, name := range guessed {
		for _, v := range h[name] {
			if len(strings.TrimSpace(v)) >= MinGuessedSecret {
				out = appendCredential(out, v)
			}
		}
	}
	return out
}

// appendCredential appends a header value, its part after a scheme, and
// for Basic the decoded pair and its password.
func appendCredential(out Secrets, v string) Secrets {
	v = strings.TrimSpace(v)
	out = append(out, v)
	scheme, cred, ok := strings.Cut(v, " ")
	if !ok {
		return out
	}
	cred = strings.TrimSpace(cred)
	out = append(out, cred)
	if strings.EqualFold(scheme, "Basic") {
		if dec, err := base64.StdEncoding.DecodeString(cred); err == nil {
			out = append(out, string(dec))
			if _, pw, ok := strings.Cut(string(dec), ":"); ok {
				out = append(out, pw)
			}
		}
	}
	return out
}

// URLSecrets returns the credentials a URL carries: its userinfo (the
// user when it has at least MinGuessedSecret bytes, the password,
// "user:password" and its base64, as a Basic header sends it) and the values of its secret-named query parameters
// (key, api_key, api-key, apikey, access_token, token, auth, password,
// secret, sig, signature, code...) of at least MinGuessedSecret bytes.
func URLSecrets(u *url.URL) Secrets {
	var out Secrets
	if u.User != nil {
		user := u.User.Username()
		pw, hasPW := u.User.Password()
		if len(user) >= MinGuessedSecret {
			out = append(out, user)
		}
		if hasPW {
			pair := user + ":" + pw
			out = append(out, pw, pair, base64.StdEncoding.EncodeToString([]byte(pair)))
		}
	}
	for name, vs := range u.Query() {
		if !secretQueryParams[strings.ToLower(name)] {
			continue
		}
		for _, v := range vs {
			if len(v) >= MinGuessedSecret {
				out = append(out, v)
			}
		}
	}
	return out
}

// RedactURL is a URL fit to print or record: no userinfo, the value of
// every secret-named query parameter replaced by REDACTED, and every
// secret scrubbed.
func (s Secrets) RedactURL(raw string) string {
	return s.redactURL(raw)
}
