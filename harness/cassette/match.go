package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// ErrReplayMiss is what a request gets in replay when no unused recorded
// interaction matches it; the error is a *MissError.
var ErrReplayMiss = errors.New("no unused recorded interaction matches the request")

// A MissError explains a replay miss: which request, and how it differs from
// the recorded request that comes nearest.
type MissError struct {
	// Scenario is the cassette's name (Options.Name).
	Scenario string
	// Request is the 1-based number of the request among all requests sent
	// through the cassette: its place in the conversation.
	Request int
	// Method and Path are the sent request's.
	Method, Path string
	// Nearest is the 1-based number of the nearest unused recorded
	// interaction; 0 when every recorded interaction was already used.
	Nearest int
	// Recorded is how many interactions the cassette holds.
	Recorded int
	// Diff is cmp.Diff(recorded, sent) of the two requests, each written as
	// "METHOD PATH" and its pretty-printed canonical body; "" without a
	// nearest interaction.
	Diff string
}

func (e *MissError) Error() string {
	head := fmt.Sprintf("scenario %q: request %d (%s %s): %v", e.Scenario, e.Request, e.Method, e.Path, ErrReplayMiss)
	if e.Nearest == 0 {
		return fmt.Sprintf("%s; all %d recorded interactions were already used", head, e.Recorded)
	}
	return fmt.Sprintf("%s; nearest unused is interaction %d of %d (-recorded +sent):\n%s", head, e.Nearest, e.Recorded, e.Diff)
}

// Is makes errors.Is(err, ErrReplayMiss) true.
func (e *MissError) Is(target error) bool { return target == ErrReplayMiss }

// A RequestKey is what matching compares: method, URL path and the
// canonical body. Host, query and headers are not compared.
type RequestKey struct {
	Method, Path string
	body         string // canonical compact JSON, or the raw body when it is not JSON
	pretty       string // canonical indented JSON, or the raw body
}

// KeyOf is the key of a request: its method, the path of rawURL and the
// canonical form of body.
func KeyOf(method, rawURL string, body []byte) RequestKey {
	path := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		path = u.Path
	}
	compact, pretty := canonicalBody(body)
	return RequestKey{Method: method, Path: path, body: compact, pretty: pretty}
}

// Matches reports whether two keys are the same request.
func (k RequestKey) Matches(o RequestKey) bool {
	return k.Method == o.Method && k.Path == o.Path && k.body == o.body
}

// Canonical is the key as one string: equal for two keys that match, so a
// map can index recorded requests by it.
func (k RequestKey) Canonical() string {
	return k.Method + " " + k.Path + "\n" + k.body
}

// Text is the request as the miss diff shows it, line-oriented.
func (k RequestKey) Text() string {
	return k.Method + " " + k.Path + "\n" + k.pretty
}

// canonicalBody re-encodes a JSON body with sorted keys, numbers as written
// and no insignificant whitespace (compact) or two-space indents (pretty),
// so key order and spacing never decide a match. A body that is not one
// JSON value is returned as it is, in both forms.
func canonicalBody(body []byte) (compact, pretty string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "", ""
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(body), string(body)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return string(body), string(body)
	}
	encode := func(indent string) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", indent)
		_ = enc.Encode(v) // a decoded value always encodes
		return strings.TrimSuffix(buf.String(), "\n")
	}
	return encode(""), encode("  ")
}

// lineDistance counts the lines of a missing from b plus those of b missing
// from a, as multisets: cheap, and good enough to rank candidates.
func lineDistance(a, b string) int {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	d := 0
	for _, n := range count {
		d += max(n, -n)
	}
	return d
}

// Nearest returns the index of the unused key closest to sent: same method
// and path first, then fewest differing lines, then the earliest. -1 when
// every key is used.
func Nearest(keys []RequestKey, used []bool, sent RequestKey) int {
	best, bestRoute, bestDist := -1, false, 0
	for i, k := range keys {
		if used[i] {
			continue
		}
		route := k.Method == sent.Method && k.Path == sent.Path
		dist := lineDistance(k.pretty, sent.pretty)
		if best < 0 || (route && !bestRoute) || (route == bestRoute && dist < bestDist) {
			best, bestRoute, bestDist = i, route, dist
		}
	}
	return best
}
