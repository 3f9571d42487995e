package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/tools"
)

// maxErrorBody is how much of a failed response's body an HTTPError keeps.
const maxErrorBody = 512

// Client sends requests with stream: true in one wire format and merges the
// streamed answer. HTTPClient is the seam for recording and replaying: nil
// means http.DefaultClient.
type Client struct {
	BaseURL    string // e.g. http://host/v1, with or without a trailing "/"
	APIKey     string // sent as the format's key header when not empty
	Model      string
	HTTPClient *http.Client
	Format     *Format // the wire format (a wire/<format> package's Format); required
}

// ErrNoFormat is returned by Complete when Client.Format is nil.
var ErrNoFormat = errors.New("agent: Client.Format is nil (pick one from package wire)")

// HTTPError is a gateway's answer with a 4xx or 5xx status (any status
// outside 2xx). Body holds the first 512 bytes of the response body.
type HTTPError struct {
	StatusCode int
	Body       string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("gateway returned %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if body := strings.Join(strings.Fields(e.Body), " "); body != "" {
		msg += ": " + body
	}
	return msg
}

// Endpoint returns the URL requests go to, for messages: BaseURL joined
// with the format's path (see endpoint), without any user:password@ and
// with the values of key-like query parameters replaced by "REDACTED", so
// that no credential is ever printed.
func (c *Client) Endpoint() string {
	u, err := url.Parse(c.endpoint())
	if err != nil {
		return "(an unparsable base URL)"
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			if secretParam(k) {
				q[k] = []string{"REDACTED"}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// secretParam reports whether a query parameter's value is a credential
// (Gemini's ?key=, Azure's SAS sig=, tokens).
func secretParam(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"key", "token", "secret", "sig", "password", "auth", "code"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// endpoint is BaseURL with the format's path appended to its path and the
// format's Query to its query: a query stays a query (Azure's
// ".../v1?api-version=2024-10-21" keeps it after the format's path) and a
// trailing "/" is not doubled. A BaseURL that does not parse is joined as text, and the request
// then fails saying why.
func (c *Client) endpoint() string {
	path := ""
	if c.Format != nil {
		path = c.Format.Path(c.Model)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return strings.TrimRight(c.BaseURL, "/") + path
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	if u.RawPath != "" {
		u.RawPath = strings.TrimRight(u.RawPath, "/") + path
	}
	if c.Format != nil && c.Format.Query != "" {
		u.RawQuery = joinQuery(u.RawQuery, c.Format.Query)
	}
	return u.String()
}

// joinQuery appends the format's query to the base URL's own.
func joinQuery(base, add string) string {
	if base == "" {
		return add
	}
	return base + "&" + add
}

// Complete posts the messages and the tool definitions and merges the
// streamed answer. A status outside 2xx is an *HTTPError; a stream error
// returns the partial turn together with the error (see Format.Merge).
func (c *Client) Complete(ctx context.Context, msgs []Message, defs []tools.Definition) (*Turn, error) {
	api := c.Format
	if api == nil {
		return nil, ErrNoFormat
	}
	body, err := api.Body(c.Model, msgs, defs)
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", api.StreamContentType())
	api.Header(req.Header, c.APIKey)
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("sending request: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, &HTTPError{StatusCode: resp.StatusCode, Body: strings.ToValidUTF8(string(head), "")}
	}
	head := &headReader{r: resp.Body}
	turn, err := api.Merge(head)
	if err != nil && ctx.Err() != nil {
		return turn, fmt.Errorf("reading stream: %w", ctx.Err())
	}
	if err != nil && head.eof && turn.empty() && !head.looksLikeSSE() && !(api.Framing != nil && api.Framing.IsFramed(head.head)) {
		return turn, &NotStreamError{ContentType: resp.Header.Get("Content-Type"), Head: head.text(), Err: err}
	}
	return turn, err
}

// NotStreamError is a 2xx answer that is not an event stream: an HTML page
// (a login or proxy page, a wrong base URL), or a non-streaming JSON answer.
// It is reported when the body was read to its end, the merge failed with
// nothing merged, and the body's first bytes hold no "data:" or "event:" line.
type NotStreamError struct {
	ContentType string // the answer's Content-Type, "" when none
	Head        string // the first bytes of the body, on one line, valid UTF-8
	Err         error  // the merge's own error
}

func (e *NotStreamError) Error() string {
	ct := e.ContentType
	if ct == "" {
		ct = "no Content-Type"
	} else {
		ct = "Content-Type " + ct
	}
	if e.Head == "" {
		return fmt.Sprintf("the gateway answered with %s and an empty body, not an event stream", ct)
	}
	return fmt.Sprintf("the gateway answered with %s, not an event stream; the body starts: %s", ct, e.Head)
}

func (e *NotStreamError) Unwrap() error { return e.Err }

// headBytes is how much of a body a NotStreamError quotes, at most.
const headBytes = 200

// headReader keeps the first bytes read through it.
type headReader struct {
	r    io.Reader
	head []byte
	eof  bool // the body was read to its end
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.eof = h.eof || err == io.EOF
	if room := 512 - len(h.head); room > 0 && n > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// looksLikeSSE reports whether a line of the head starts with "data:" or
// "event:" (a BOM aside).
func (h *headReader) looksLikeSSE() bool {
	for _, line := range strings.FieldsFunc(string(bytes.TrimPrefix(h.head, []byte("\uFEFF"))), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(line, "data:") || strings.HasPrefix(line, "event:") || line == "data" {
			return true
		}
	}
	return false
}

// text is the head on one line, cut to headBytes with "…".
func (h *headReader) text() string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(h.head), "\uFFFD")), " ")
	if len(s) <= headBytes {
		return s
	}
	cut := headBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// empty reports whether nothing at all was merged.
func (t *Turn) empty() bool {
	return t == nil || (t.Text == "" && t.FinishReason == "" && len(t.ToolCalls) == 0)
}
