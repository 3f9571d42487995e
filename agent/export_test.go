package agent

import (
	"context"
	"time"
)

// What the external tests (package agent_test, which import a wire format)
// reach inside the package for.

// SetSleep makes the transport record its retry waits instead of sleeping.
func (t *LiveTransport) SetSleep(f func(context.Context, time.Duration) error) { t.sleep = f }

// EndpointURL is the unredacted URL requests go to.
func (c *Client) EndpointURL() string { return c.endpoint() }

var FirstLine = firstLine

const (
	SystemPromptZH = systemPromptZH
	SystemPromptEN = systemPromptEN
)
