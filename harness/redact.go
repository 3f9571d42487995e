package harness

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dnaeon/go-vcr/v2/cassette"
)

// redacted replaces every configured secret in a saved cassette.
const redacted = "REDACTED"

// keptHeaders is the header allowlist, for requests and responses alike:
// every other header (Authorization, Cookie, Set-Cookie, X-Api-Key,
// OpenAI-Organization, Date, request ids, rate limits) is dropped.
var keptHeaders = []string{"Accept", "Content-Type"}

// secretQueryParams are query parameters whose values are replaced.
var secretQueryParams = map[string]bool{
	"key": true, "api_key": true, "api-key": true, "apikey": true, "access_token": true, "token": true,
	"auth": true, "authorization": true, "code": true, "password": true, "secret": true, "sig": true, "signature": true,
}

// keyPattern finds API-key-shaped strings (OpenAI "sk-", "sk-proj-"...)
// that no configured secret named.
var keyPattern = regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`)

// redactInteraction is the save filter: header allowlist, URL without
// userinfo or secret query values, secrets replaced in bodies, forms and
// kept header values, and no recorded latency (replay skips it, and a
// changing duration is churn in review). It builds new header maps: the
// recorded request's map is the caller's live one.
func (c *Cassette) redactInteraction(i *cassette.Interaction) error {
	i.Request.Headers = c.keepHeaders(i.Request.Headers)
	i.Response.Headers = c.keepHeaders(i.Response.Headers)
	i.Request.URL = c.redactURL(i.Request.URL)
	i.Request.Body = c.scrub(i.Request.Body)
	i.Response.Body = c.scrub(i.Response.Body)
	form := url.Values{}
	for k, vs := range i.Request.Form {
		for _, v := range vs {
			form.Add(c.scrub(k), c.scrub(v))
		}
	}
	i.Request.Form = form
	i.Response.Duration = 0
	return nil
}

func (c *Cassette) keepHeaders(h http.Header) http.Header {
	out := http.Header{}
	for _, name := range keptHeaders {
		for _, v := range h.Values(name) {
			out.Add(name, c.scrub(v))
		}
	}
	return out
}

func (c *Cassette) redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return c.scrub(raw)
	}
	u.User = nil
	q := u.Query()
	for k := range q {
		if secretQueryParams[strings.ToLower(k)] {
			q[k] = []string{redacted}
		}
	}
	u.RawQuery = q.Encode()
	return c.scrub(u.String())
}

// scrub replaces every configured secret in s, longest first, so a secret
// that contains another is replaced whole.
func (c *Cassette) scrub(s string) string {
	secrets := c.secrets()
	sort.Slice(secrets, func(a, b int) bool { return len(secrets[a]) > len(secrets[b]) })
	for _, sec := range secrets {
		s = strings.ReplaceAll(s, sec, redacted)
	}
	return s
}

func (c *Cassette) secrets() []string {
	var out []string
	for _, s := range c.opts.Secrets {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// scanSecrets reads the saved file and fails, removing it, when a
// configured secret (as written, or escaped for a URL) or a key-shaped
// string is in it. The error names line numbers, never the secret.
func (c *Cassette) scanSecrets() error {
	data, err := os.ReadFile(c.temp)
	if err != nil {
		return fmt.Errorf("cassette %s: scan for secrets: %w", c.file, err)
	}
	var found []string
	for n, sec := range c.secrets() {
		for _, form := range []string{sec, url.QueryEscape(sec), url.PathEscape(sec)} {
			if lines := linesContaining(data, func(l string) bool { return strings.Contains(l, form) }); lines != "" {
				found = append(found, fmt.Sprintf("secret %d on %s", n+1, lines))
				break
			}
		}
	}
	if lines := linesContaining(data, keyPattern.MatchString); lines != "" {
		found = append(found, "an sk- key on "+lines)
	}
	if len(found) == 0 {
		return nil
	}
	if err := os.Remove(c.temp); err != nil {
		return fmt.Errorf("cassette %s: %s; removing the recording failed: %v: %w", c.file, strings.Join(found, "; "), err, ErrSecretInCassette)
	}
	return fmt.Errorf("cassette %s: %s; nothing was written: %w", c.file, strings.Join(found, "; "), ErrSecretInCassette)
}

// linesContaining names the 1-based lines where hit is true ("line 5",
// "lines 5, 43"); "" when there is none.
func linesContaining(data []byte, hit func(string) bool) string {
	var nums []string
	for n, l := range strings.Split(string(data), "\n") {
		if hit(l) {
			nums = append(nums, strconv.Itoa(n+1))
		}
	}
	switch len(nums) {
	case 0:
		return ""
	case 1:
		return "line " + nums[0]
	}
	return "lines " + strings.Join(nums, ", ")
}
