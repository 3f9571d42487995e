// Package sdkcheck reads an Anthropic Messages stream with the official Go
// SDK the way its users do (its ssestream decoder, its event union and
// Message.Accumulate) so that its answer can be set beside agentvcr's merger
// on every fixture of wire/messages/testdata/streams.
package sdkcheck

import (
	"io"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"
)

// Call is one tool_use block of the accumulated Message.
type Call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Answer is what anthropic-sdk-go gives for one stream: the accumulated
// Message's text blocks joined, its tool_use blocks, its stop_reason,
// whether message_stop arrived, and the first error (stream.Err or
// Accumulate's).
type Answer struct {
	Text       string
	Calls      []Call
	StopReason string
	Stopped    bool
	Err        error
}

// Read runs body through ssestream.NewDecoder and ssestream.Stream over
// anthropic.MessageStreamEventUnion, as Messages.NewStreaming does with the
// HTTP response, and accumulates every event into one anthropic.Message.
func Read(body io.Reader) Answer {
	res := &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       io.NopCloser(body),
	}
	stream := ssestream.NewStream[anthropic.MessageStreamEventUnion](ssestream.NewDecoder(res), nil)
	defer stream.Close()
	var (
		a   Answer
		msg anthropic.Message
	)
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			a.Err = err
			break
		}
		if ev.Type == "message_stop" {
			a.Stopped = true
		}
	}
	if a.Err == nil {
		a.Err = stream.Err()
	}
	a.StopReason = string(msg.StopReason)
	for _, block := range msg.Content {
		switch block.Type {
		case "text":
			a.Text += block.Text
		case "tool_use":
			a.Calls = append(a.Calls, Call{ID: block.ID, Name: block.Name, Arguments: string(block.Input)})
		}
	}
	return a
}
