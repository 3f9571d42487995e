// Package sdkcheck reads an OpenAI Responses stream with the openai-go SDK the
// way its users do (its ssestream decoder, its typed event union, the final
// Response of response.completed) so that its answer can be set beside
// agentvcr's merger on every fixture of wire/responses/testdata/streams.
package sdkcheck

import (
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

// Call is one function call as the SDK's final Response lists it.
type Call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Answer is what openai-go gives for one stream: the text and function calls
// of the Response carried by response.completed, whether one arrived, the
// stream's error (stream.Err), and the types of the events it decoded.
type Answer struct {
	Text      string
	Calls     []Call
	Completed bool
	Err       error
	Events    []string
}

// Read runs body through ssestream.NewDecoder and ssestream.Stream over the
// responses.ResponseStreamEventUnion, as Responses.NewStreaming does with the
// HTTP response. openai-go has no accumulator for Responses SSE streams (its
// ResponseAccumulator reads the WebSocket events), so the answer is what the
// SDK hands over: the final Response of response.completed (Output and
// OutputText), and stream.Err.
func Read(body io.Reader) Answer {
	res := &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"text/event-stream"}},
		Body:       io.NopCloser(body),
	}
	stream := ssestream.NewStream[responses.ResponseStreamEventUnion](ssestream.NewDecoder(res), nil)
	defer stream.Close()
	var a Answer
	for stream.Next() {
		ev := stream.Current()
		a.Events = append(a.Events, ev.Type)
		if done, ok := ev.AsAny().(responses.ResponseCompletedEvent); ok {
			a.Completed = true
			a.Text = done.Response.OutputText()
			a.Calls = nil
			for _, item := range done.Response.Output {
				switch item.Type {
				case "function_call":
					fc := item.AsFunctionCall()
					a.Calls = append(a.Calls, Call{ID: fc.CallID, Name: fc.Name, Arguments: fc.Arguments})
				case "custom_tool_call": // a custom tool's call: its input is the arguments
					cc := item.AsCustomToolCall()
					a.Calls = append(a.Calls, Call{ID: cc.CallID, Name: cc.Name, Arguments: cc.Input})
				}
			}
		}
	}
	a.Err = stream.Err()
	return a
}
