package cassette

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	vcr "github.com/dnaeon/go-vcr/v2/cassette"
)

// Replay replays a cassette already loaded (Load or Decode: read and
// decoded once, by the caller); file names it in errors and is never
// read. It serves what go-vcr v2.1.0's replaying recorder serves, without
// decoding the file a second time: for each request, the first interaction
// not served yet whose request matches it (match.go), answered with the
// recorded status, headers and body. The body is read from the decoded
// string itself, so a replay holds each body once, and it is dropped from
// loaded as it is served (an interaction serves one request at most): once
// the caller has read the answer, its memory can be reused (a 52
// MiB answer once stayed while the agent held the text it merged from it).
// Open replays a file without holding its answers at all (answer.go).
func Replay(file string, loaded *vcr.Cassette, opts Options) *Cassette {
	c := &Cassette{file: file, name: opts.Name, mode: ModeReplay, opts: opts, loaded: loaded}
	if c.name == "" {
		c.name = strings.TrimSuffix(filepath.Base(file), ".yaml")
	}
	for _, i := range loaded.Interactions {
		c.keys = append(c.keys, RequestKey{Method: i.Request.Method, Path: urlPath(i.Request.URL)})
	}
	c.keyed = make([]bool, len(c.keys))
	c.used = make([]bool, len(c.keys))
	return c
}

// key is the key of recorded interaction i, its body made canonical on
// first use: a request sent byte for byte as recorded never needs it.
// c.mu is held.
func (c *Cassette) key(i int) RequestKey {
	if !c.keyed[i] {
		r := c.loaded.Interactions[i].Request
		c.keys[i], c.keyed[i] = KeyOf(r.Method, r.URL, []byte(r.Body)), true
	}
	return c.keys[i]
}

// replay answers req, whose body is body, with the first unused recorded
// interaction that matches it, as go-vcr's replaying recorder builds its
// answer (HTTP/1.0, Close, the recorded headers; a HEAD's length is the
// recorded Content-Length); vcr.ErrInteractionNotFound and the request's
// key when none does.
//
// The first unused interaction on the request's method and path is the
// match when its body is the sent one byte for byte: no other unused
// interaction on that route comes before it, so nothing is made canonical.
// Otherwise the sent key is made and compared with each unused one.
func (c *Cassette) replay(req *http.Request, body []byte) (*http.Response, RequestKey, error) {
	if err := req.Context().Err(); err != nil {
		return nil, RequestKey{}, err
	}
	rawURL := req.URL.String()
	path := urlPath(rawURL)
	c.mu.Lock()
	n := -1
	for i, used := range c.used {
		if !used && c.keys[i].Method == req.Method && c.keys[i].Path == path {
			if c.loaded.Interactions[i].Request.Body == string(body) {
				n = i
			}
			break
		}
	}
	var sent RequestKey
	if n < 0 {
		sent = KeyOf(req.Method, rawURL, body)
		for i, used := range c.used {
			if !used && c.key(i).Matches(sent) {
				n = i
				break
			}
		}
	}
	var rec vcr.Response
	if n >= 0 {
		c.used[n] = true
		rec = c.loaded.Interactions[n].Response
		c.loaded.Interactions[n].Response.Body = "" // served: never read again
	}
	c.mu.Unlock()
	if n < 0 {
		return nil, sent, fmt.Errorf("cassette %s: %w", c.file, vcr.ErrInteractionNotFound)
	}
	answer, length, err := c.answer(n, rec.Body)
	if err != nil {
		return nil, RequestKey{}, err
	}
	if req.Method == http.MethodHead {
		if v, err := strconv.ParseInt(rec.Headers.Get("Content-Length"), 10, 64); err == nil {
			length = v
		}
	}
	return &http.Response{Status: rec.Status, StatusCode: rec.Code, Proto: "HTTP/1.0", ProtoMajor: 1, Request: req,
		Header: rec.Headers, Close: true, ContentLength: length, Body: io.NopCloser(answer)}, RequestKey{}, nil
}

// answer is the recorded body of interaction n, and its length: body as
// it is, or read from the file when the replay left it there (answer.go).
func (c *Cassette) answer(n int, body string) (io.Reader, int64, error) {
	if c.answers != nil && c.answers.spans[n] != nil {
		return c.answers.open(n)
	}
	return strings.NewReader(body), int64(len(body)), nil
}
