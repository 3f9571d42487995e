package conform

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/harness/sse"
)

// finishLength ends the stream inside the second call as the output token
// limit does: its head and first argument piece (halved when that alone is
// valid JSON, so the call is cut), then a chunk with finish_reason "length"
// and [DONE].
func finishLength(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	n, err := cutPoint(events)
	if err != nil {
		return nil, err
	}
	last := &events[n-1]
	var chunk map[string]any
	if json.Unmarshal([]byte(last.Data), &chunk) == nil {
		if fn := lastFunction(chunk); fn != nil {
			if args, _ := fn["arguments"].(string); json.Valid([]byte(args)) {
				fn["arguments"] = string([]rune(args)[:utf8.RuneCountInString(args)/2])
				data, err := json.Marshal(chunk)
				if err != nil {
					return nil, err
				}
				last.Data = string(data)
			}
		}
	}
	var head argPiece
	json.Unmarshal([]byte(last.Data), &head) // the cut event is a chunk
	c := errorChunk{ID: head.ID, Object: "chat.completion.chunk", Created: head.Created, Model: head.Model,
		Choices: []errorChoice{{FinishReason: "length"}}}
	data, err := json.Marshal(struct {
		ID      string        `json:"id"`
		Object  string        `json:"object"`
		Created int64         `json:"created"`
		Model   string        `json:"model"`
		Choices []errorChoice `json:"choices"`
	}{c.ID, c.Object, c.Created, c.Model, c.Choices})
	if err != nil {
		return nil, err
	}
	out := append(events[:n:n], sse.Event{Data: string(data), HasData: true}, sse.Event{Data: "[DONE]", HasData: true})
	return sse.Format(out, "\n"), nil
}

// lastFunction is the function member of the chunk's last tool-call piece,
// nil when it has none.
func lastFunction(chunk map[string]any) map[string]any {
	choices, _ := chunk["choices"].([]any)
	for i := len(choices) - 1; i >= 0; i-- {
		choice, _ := choices[i].(map[string]any)
		delta, _ := choice["delta"].(map[string]any)
		calls, _ := delta["tool_calls"].([]any)
		if len(calls) > 0 {
			call, _ := calls[len(calls)-1].(map[string]any)
			fn, _ := call["function"].(map[string]any)
			return fn
		}
	}
	return nil
}
