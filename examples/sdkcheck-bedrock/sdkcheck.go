// Package sdkcheck runs the AWS SDK for Go v2's own event stream readers
// over agentvcr's Bedrock fixtures: its eventstream decoder over the
// InvokeModelWithResponseStream streams of wire/messages, and the
// bedrockruntime client's ConverseStream reader over the streams of
// wire/converse, so that what agentvcr serves and what its own reader
// accepts or refuses is checked against the reader most Go agents on
// Bedrock use.
package sdkcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

// Call is one tool call as the SDK's reader gave it.
type Call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Answer is what a reader made of one stream.
type Answer struct {
	Text         string
	FinishReason string
	Calls        []Call
	Err          error
}

// errNoEnd is a stream that ended between messages before its last event
// (message_stop, messageStop): the SDK's readers end quietly there.
var errNoEnd = errors.New("the stream ended before its last event")

// Invoke reads an InvokeModelWithResponseStream stream with the SDK's
// decoder, message by message: a chunk's "bytes" is an Anthropic event,
// merged the plain way (text deltas, tool_use starts, input_json_delta
// pieces); an exception message is an error.
func Invoke(stream io.Reader) Answer {
	dec := eventstream.NewDecoder()
	var a Answer
	var calls []*Call
	byIndex := map[int]*Call{}
	stopped := false
	for {
		m, err := dec.Decode(stream, nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			a.Err = err
			break
		}
		if v := m.Headers.Get(":message-type"); v != nil && v.String() == "exception" {
			a.Err = fmt.Errorf("%s: %s", m.Headers.Get(":exception-type"), m.Payload)
			break
		}
		if v := m.Headers.Get(":event-type"); v == nil || v.String() != "chunk" {
			continue // an event type the SDK's model has no member for
		}
		var chunk struct {
			Bytes []byte `json:"bytes"` // base64, as encoding/json reads a []byte
		}
		if err := json.Unmarshal(m.Payload, &chunk); err != nil {
			a.Err = err
			break
		}
		var ev struct {
			Type         string `json:"type"`
			Index        int    `json:"index"`
			ContentBlock struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal(chunk.Bytes, &ev); err != nil {
			a.Err = err
			break
		}
		switch ev.Type {
		case "content_block_start":
			if ev.ContentBlock.Type == "tool_use" {
				c := &Call{ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name}
				calls, byIndex[ev.Index] = append(calls, c), c
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				a.Text += ev.Delta.Text
			case "input_json_delta":
				if c := byIndex[ev.Index]; c != nil {
					c.Arguments += ev.Delta.PartialJSON
				}
			}
		case "message_delta":
			a.FinishReason = ev.Delta.StopReason
		case "message_stop":
			stopped = true
		}
	}
	for _, c := range calls {
		a.Calls = append(a.Calls, *c)
	}
	if a.Err == nil && !stopped {
		a.Err = errNoEnd
	}
	return a
}

// Converse reads a ConverseStream answer through the bedrockruntime
// client: a server on loopback answers its request with stream, the SDK
// signs with dummy credentials and reads the events its own way.
func Converse(ctx context.Context, stream []byte) Answer {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(stream)
	}))
	defer srv.Close()
	client := bedrockruntime.New(bedrockruntime.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		// SigV4 with dummy keys: the loopback server checks no signature
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDAGENTVCRDUMMY", SecretAccessKey: "agentvcr-dummy-secret"}, nil
		}),
		AuthSchemePreference: []string{"sigv4"},
		Retryer:              aws.NopRetryer{},
	})
	out, err := client.ConverseStream(ctx, &bedrockruntime.ConverseStreamInput{
		ModelId:  aws.String("anthropic.claude-sonnet-4-5-20250929-v1:0"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "go"}}}},
	})
	if err != nil {
		return Answer{Err: err}
	}
	es := out.GetStream()
	defer es.Close()
	var a Answer
	var calls []*Call
	byIndex := map[int32]*Call{}
	stopped := false
	for ev := range es.Events() {
		switch v := ev.(type) {
		case *types.ConverseStreamOutputMemberContentBlockStart:
			if u, ok := v.Value.Start.(*types.ContentBlockStartMemberToolUse); ok {
				c := &Call{ID: aws.ToString(u.Value.ToolUseId), Name: aws.ToString(u.Value.Name)}
				calls, byIndex[aws.ToInt32(v.Value.ContentBlockIndex)] = append(calls, c), c
			}
		case *types.ConverseStreamOutputMemberContentBlockDelta:
			switch d := v.Value.Delta.(type) {
			case *types.ContentBlockDeltaMemberText:
				a.Text += d.Value
			case *types.ContentBlockDeltaMemberToolUse:
				if c := byIndex[aws.ToInt32(v.Value.ContentBlockIndex)]; c != nil {
					c.Arguments += aws.ToString(d.Value.Input)
				}
			}
		case *types.ConverseStreamOutputMemberMessageStop:
			a.FinishReason, stopped = string(v.Value.StopReason), true
		}
	}
	for _, c := range calls {
		if c.Arguments == "" {
			c.Arguments = "{}"
		}
		a.Calls = append(a.Calls, *c)
	}
	a.Err = es.Err()
	if a.Err == nil && !stopped {
		a.Err = errNoEnd
	}
	return a
}
