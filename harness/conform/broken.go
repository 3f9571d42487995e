package conform

import (
	"encoding/json"
	"fmt"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// argPiece is what the cut reads of a clean chunk: the calls' indexes and
// argument pieces, and the envelope the error chunk copies.
type argPiece struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			ToolCalls []struct {
				Index    int `json:"index"`
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
}

// cutPoint is how many events of a clean tool turn to keep so that the
// stream breaks inside its second call (inside its only call when it has
// one): every call before it whole, then its head and first piece of
// arguments.
func cutPoint(events []sse.Event) (int, error) {
	pieces := make([]argPiece, len(events))
	last := -1
	for i, ev := range events {
		if ev.HasData && json.Unmarshal([]byte(ev.Data), &pieces[i]) == nil {
			for _, ch := range pieces[i].Choices {
				for _, tc := range ch.Delta.ToolCalls {
					last = max(last, tc.Index)
				}
			}
		}
	}
	target := min(last, 1)
	for i, p := range pieces {
		for _, ch := range p.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Index == target && tc.Function.Arguments != "" {
					return i + 1, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no call arguments to break the stream in: %w", quirk.ErrNotApplicable)
}

// truncate ends the stream inside the second call, with neither a
// finish_reason nor [DONE].
func truncate(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	n, err := cutPoint(events)
	if err != nil {
		return nil, err
	}
	return sse.Format(events[:n], "\n"), nil
}

// errorChunk is the chunk OpenRouter sends when the provider fails
// mid-stream, in its key order.
type errorChunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []errorChoice `json:"choices"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type errorChoice struct {
	Index        int      `json:"index"`
	Delta        struct{} `json:"delta"`
	FinishReason string   `json:"finish_reason"`
}

// midstreamError ends the stream inside the second call with an error chunk
// (finish_reason "error" and an "error" member), then the end of the body.
func midstreamError(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	n, err := cutPoint(events)
	if err != nil {
		return nil, err
	}
	var head argPiece
	json.Unmarshal([]byte(events[n-1].Data), &head) // the cut event is a chunk
	c := errorChunk{ID: head.ID, Object: "chat.completion.chunk", Created: head.Created, Model: head.Model,
		Choices: []errorChoice{{FinishReason: "error"}}}
	c.Error.Code, c.Error.Message = 502, "Provider returned error"
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	out := append(events[:n:n], sse.Event{Data: string(data), HasData: true})
	return sse.Format(out, "\n"), nil
}
