package messages

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

// ErrSecondMessage is matched (errors.Is) by the error of a Messages stream
// that starts a second message with another id: one stream is one turn, and
// two are never merged into one.
var ErrSecondMessage = errors.New("a second message started in the same stream")

// truncatedMessages is the ErrTruncatedStream of the Messages format.
type truncatedMessages struct{}

func (truncatedMessages) Error() string {
	return "stream ended without a stop_reason or message_stop"
}

func (truncatedMessages) Is(target error) bool { return target == agent.ErrTruncatedStream }

// msgEvent is one Messages stream event; only the members of its type are set.
type msgEvent struct {
	Type    string `json:"type"`
	Message *struct {
		ID         string            `json:"id"`
		Usage      *msgUsage         `json:"usage"`
		StopReason string            `json:"stop_reason"`
		Content    []json.RawMessage `json:"content"`
	} `json:"message"`
	Index        *int            `json:"index"`
	ContentBlock *msgBlockStart  `json:"content_block"`
	Delta        msgDelta        `json:"delta"`
	Usage        *msgUsage       `json:"usage"`
	Error        json.RawMessage `json:"error"`
}

type msgBlockStart struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
}

type msgDelta struct {
	Type        string  `json:"type"`
	Text        string  `json:"text"`
	PartialJSON *string `json:"partial_json"`
	Thinking    string  `json:"thinking"`
	Signature   string  `json:"signature"`
	StopReason  string  `json:"stop_reason"`
}

// msgUsage is Anthropic's usage; message_start's and message_delta's are
// cumulative, so a member present later replaces the earlier one.
type msgUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

// Merge reads a raw Anthropic Messages SSE stream and merges it
// into one turn; see the package documentation for the rules. On error it
// returns what was merged so far together with the error: a *StreamError for
// an error event, an error matching ErrTruncatedStream for a stream cut
// before its stop_reason and message_stop, ErrSecondMessage, or a read or
// decode error.
func Merge(r io.Reader) (*agent.Turn, error) {
	return merge(r, false)
}

func merge(r io.Reader, jsonOnly bool) (*agent.Turn, error) {
	m := msgMerger{jsonOnly: jsonOnly}
	_, err := sse.Each(r, func(data []byte, isError bool) (bool, error) {
		switch {
		case isError:
			return false, agent.EventError(data)
		case string(data) == "[DONE]":
			return false, nil
		}
		return false, m.add(data)
	})
	switch {
	case err != nil:
		return m.turn(), err
	case !m.stopped && m.stopReason == "":
		return m.turn(), truncatedMessages{}
	}
	return m.end()
}
