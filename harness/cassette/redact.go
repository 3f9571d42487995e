package cassette

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
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

// redactInteraction is the cassette's save filter: RedactInteraction with
// the configured secrets.
func (c *Cassette) redactInteraction(i *vcr.Interaction) error {
	return Secrets(c.opts.Secrets).RedactInteraction(i)
}

// RedactInteraction is the save filter of a recording: header allowlist
// (Accept and Content-Type only, a response's EventTimesHeader when it
// reads: digits and commas, and its TransportHeader when it says
// websocket), URL without userinfo and with the values of
// secret-named query parameters replaced, every secret scrubbed (Scrub)
// from bodies, form and kept header values, and no recorded latency (replay
// skips it, and a changing duration is churn in review). It builds new
// header maps: the recorded request's map is the caller's live one. It
// never fails; the scan after saving is what fails closed.
func (s Secrets) RedactInteraction(i *vcr.Interaction) error {
	i.Request.Headers = s.keepHeaders(i.Request.Headers)
	times := i.Response.Headers.Get(EventTimesHeader)
	transport := i.Response.Headers.Get(TransportHeader)
	i.Response.Headers = s.keepHeaders(i.Response.Headers)
	if _, err := ParseEventTimes(times); err == nil && times != "" {
		i.Response.Headers.Set(EventTimesHeader, times)
	}
	if transport == TransportWebSocket {
		i.Response.Headers.Set(TransportHeader, transport)
	}
	i.Request.URL = s.redactURL(i.Request.URL)
	i.Request.Body = s.Scrub(i.Request.Body)
	i.Response.Body = s.Scrub(i.Response.Body)
	form := url.Values{}
	for k, vs := range i.Request.Form {
		for _, v := range vs {
			form.Add(s.Scrub(k), s.Scrub(v))
		}
	}
	i.Request.Form = form
	i.Response.Duration = 0
	return nil
}

func (s Secrets) keepHeaders(h http.Header) http.Header {
	out := http.Header{}
	for _, name := range keptHeaders {
		for _, v := range h.Values(name) {
			out.Add(name, s.Scrub(v))
		}
	}
	return out
}

func (s Secrets) redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return s.Scrub(raw)
	}
	u.User = nil
	q := u.Query()
	for k := range q {
		if secretQueryParams[strings.ToLower(k)] {
			q[k] = []string{redacted}
		}
	}
	u.RawQuery = q.Encode()
	return s.Scrub(u.String())
}

// linesContaining names the 1-based lines where hit is true ("line 5",
// "lines 5, 43"); "" when there is none.
func linesContaining(data []byte, hit func(string) bool) string {
	var nums []int
	for n, l := range strings.Split(string(data), "\n") {
		if hit(l) {
			nums = append(nums, n+1)
		}
	}
	return lineNumbers(nums)
}

// lineNumbers names 1-based lines as linesContaining does.
func lineNumbers(nums []int) string {
	text := make([]string, len(nums))
	for i, n := range nums {
		text[i] = strconv.Itoa(n)
	}
	switch len(nums) {
	case 0:
		return ""
	case 1:
		return "line " + text[0]
	}
	return "lines " + strings.Join(text, ", ")
}
