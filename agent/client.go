package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

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
	API        *API // the wire format; nil means ChatCompletions
}

// Format returns the client's wire format: API, or ChatCompletions when nil.
func (c *Client) Format() *API {
	if c.API == nil {
		return ChatCompletions
	}
	return c.API
}

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

// request is the body of every request; its field order is the key order.
type request struct {
	Model    string             `json:"model"`
	Messages []Message          `json:"messages"`
	Tools    []tools.Definition `json:"tools,omitempty"`
	Stream   bool               `json:"stream"`
}

// RequestBody returns the exact bytes Complete sends:
// {"model":..,"messages":[..],"tools":[..],"stream":true}. The same input
// always gives the same bytes; "tools" is left out when there are none
// (gateways reject an empty array).
func RequestBody(model string, msgs []Message, defs []tools.Definition) ([]byte, error) {
	if msgs == nil {
		msgs = []Message{}
	}
	return json.Marshal(request{Model: model, Messages: msgs, Tools: defs, Stream: true})
}

// Endpoint returns BaseURL joined with the format's path.
func (c *Client) Endpoint() string {
	return strings.TrimRight(c.BaseURL, "/") + c.Format().Path
}

// Complete posts the messages and the tool definitions and merges the
// streamed answer. A status outside 2xx is an *HTTPError; a stream error
// returns the partial turn together with the error (see MergeStream).
func (c *Client) Complete(ctx context.Context, msgs []Message, defs []tools.Definition) (*Turn, error) {
	api := c.Format()
	body, err := api.Body(c.Model, msgs, defs)
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
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
	turn, err := api.Merge(resp.Body)
	if err != nil && ctx.Err() != nil {
		return turn, fmt.Errorf("reading stream: %w", ctx.Err())
	}
	return turn, err
}
