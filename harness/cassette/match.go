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
	// Diff is the summary of cmp.Diff(recorded, sent) of the two requests,
	// each written as "METHOD PATH" and its pretty-printed canonical body:
	// every line cut to MaxDiffLineBytes (with its length and a hash, so
	// lines that differ past the cut still differ), and the diff cut after
	// MaxDiffLines lines; "" without a nearest interaction. WholeDiff is
	// the diff uncut.
	Diff string

	recorded, sent RequestKey // the two requests, for WholeDiff
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
	json         bool   // body is canonical JSON (indented when a miss is shown)
}

// KeyOf is the key of a request: its method, the path of rawURL and the
// canonical form of body.
func KeyOf(method, rawURL string, body []byte) RequestKey {
	return KeyIgnoring(method, rawURL, body, nil)
}

// KeyIgnoring is KeyOf with the fields ignore names (IgnorePath) left out
// of the canonical body: two requests that differ only there match.
func KeyIgnoring(method, rawURL string, body []byte, ignore []string) RequestKey {
	compact, isJSON := canonicalBody(body, ignore)
	return RequestKey{Method: method, Path: urlPath(rawURL), body: compact, json: isJSON}
}

// urlPath is the path of rawURL, or rawURL itself when it does not parse.
func urlPath(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return u.Path
	}
	return rawURL
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
	return k.Method + " " + k.Path + "\n" + k.pretty()
}

// pretty is the canonical body with two-space indents, or the raw body when
// it is not JSON. Only a miss shows it, so it is made on demand: indenting
// the compact text is what an indenting encoder does, at a fraction of the
// cost of encoding the value again.
func (k RequestKey) pretty() string {
	if !k.json {
		return k.body
	}
	var indented bytes.Buffer
	indented.Grow(len(k.body) * 2)
	_ = json.Indent(&indented, []byte(k.body), "", "  ") // valid JSON always indents
	return indented.String()
}

// canonicalBody re-encodes a JSON body, the fields ignore names left out,
// with sorted keys, numbers as written and no insignificant whitespace, so
// key order and spacing never decide a match; isJSON is true. A body that
// is not one JSON value is returned as it is, isJSON false.
func canonicalBody(body []byte, ignore []string) (compact string, isJSON bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(body), false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return string(body), false
	}
	for _, p := range ignore {
		v = IgnorePath(v, p)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a decoded value always encodes
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), true
}

// Nearest returns the index of the unused key closest to sent: same method
// and path first, then fewest differing lines (as multisets), then the
// earliest. -1 when every key is used. Its cost is one pass over sent's
// lines and one over each candidate's: sent's lines are counted once, not
// once per recorded request (an 11 MiB near miss against 40 recorded
// requests hashed its 11 MiB line 40 times).
func Nearest(keys []RequestKey, used []bool, sent RequestKey) int {
	onRoute := false
	for i, k := range keys {
		if !used[i] && k.Method == sent.Method && k.Path == sent.Path {
			onRoute = true
			break
		}
	}
	sentPretty := sent.pretty()
	sentLines := lineCounts(sentPretty)
	sentTotal := strings.Count(sentPretty, "\n") + 1
	best, bestDist := -1, 0
	shared := map[string]int{}
	for i, k := range keys {
		if used[i] || (onRoute && (k.Method != sent.Method || k.Path != sent.Path)) {
			continue
		}
		clear(shared)
		common, total := 0, 0
		for line := range strings.SplitSeq(k.pretty(), "\n") {
			total++
			if shared[line] < sentLines[line] {
				shared[line]++
				common++
			}
		}
		dist := total + sentTotal - 2*common
		if best < 0 || dist < bestDist {
			best, bestDist = i, dist
		}
	}
	return best
}

// lineCounts counts the lines of text.
func lineCounts(text string) map[string]int {
	count := map[string]int{}
	for line := range strings.SplitSeq(text, "\n") {
		count[line]++
	}
	return count
}
