package messages

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/piece"
)

// streamEvent is one Messages stream event in the member order Anthropic
// sends.
type streamEvent struct {
	Type         string          `json:"type"`
	Message      *streamMessage  `json:"message,omitempty"`
	Index        *int            `json:"index,omitempty"`
	ContentBlock json.RawMessage `json:"content_block,omitempty"`
	Delta        json.RawMessage `json:"delta,omitempty"`
	Usage        *streamUsage    `json:"usage,omitempty"`
}

type streamMessage struct {
	ID           string       `json:"id"`
	Type         string       `json:"type"`
	Role         string       `json:"role"`
	Model        string       `json:"model"`
	Content      []any        `json:"content"`
	StopReason   *string      `json:"stop_reason"`
	StopSequence *string      `json:"stop_sequence"`
	Usage        *streamUsage `json:"usage"`
}

type streamUsage struct {
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens"`
}

// typedText is {"type","text"} in that order, as Anthropic sends it.
type typedText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Write renders t as the events of a clean Anthropic Messages stream
// ("event: T\ndata: {...}\n\n" each): message_start, a ping, a text block in
// pieces, then per call a tool_use block that starts with the {} input
// placeholder and an empty first partial_json, its arguments in pieces;
// message_delta with stop_reason (t.FinishReason, else tool_use with calls
// and end_turn without) and message_stop. Reasoning is not written.
func Write(model, conversation string, index int, t *agent.Turn) []string {
	var events []string
	emit := func(e streamEvent) {
		b, err := json.Marshal(e)
		if err != nil {
			panic(err) // plain structs of strings and ints always marshal
		}
		events = append(events, "event: "+e.Type+"\ndata: "+string(b)+"\n\n")
	}
	raw := func(v any) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	emit(streamEvent{Type: "message_start", Message: &streamMessage{ID: messageID(conversation, index), Type: "message", Role: agent.RoleAssistant,
		Model: model, Content: []any{}, Usage: &streamUsage{InputTokens: 100 * (index + 1), OutputTokens: 1}}})
	emit(streamEvent{Type: "ping"})
	block := 0
	if t.Text != "" {
		i := block
		emit(streamEvent{Type: "content_block_start", Index: &i, ContentBlock: raw(typedText{"text", ""})})
		for _, piece := range piece.Split(t.Text, piece.TextRunes) {
			emit(streamEvent{Type: "content_block_delta", Index: &i, Delta: raw(typedText{"text_delta", piece})})
		}
		emit(streamEvent{Type: "content_block_stop", Index: &i})
		block++
	}
	for c, call := range t.ToolCalls {
		i := block
		id := call.ID
		if id == "" {
			id = toolUseID(conversation, index, c)
		}
		emit(streamEvent{Type: "content_block_start", Index: &i, ContentBlock: raw(struct {
			Type  string   `json:"type"`
			ID    string   `json:"id"`
			Name  string   `json:"name"`
			Input struct{} `json:"input"`
		}{"tool_use", id, call.Function.Name, struct{}{}})})
		for _, piece := range append([]string{""}, piece.Split(call.Function.Arguments, piece.ArgsRunes)...) {
			emit(streamEvent{Type: "content_block_delta", Index: &i, Delta: raw(struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
			}{"input_json_delta", piece})})
		}
		emit(streamEvent{Type: "content_block_stop", Index: &i})
		block++
	}
	stop := "end_turn"
	if len(t.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if t.FinishReason != "" {
		stop = t.FinishReason
	}
	emit(streamEvent{Type: "message_delta", Delta: raw(map[string]any{"stop_reason": stop, "stop_sequence": nil}),
		Usage: &streamUsage{OutputTokens: 10 + len(t.Text)/4}})
	emit(streamEvent{Type: "message_stop"})
	return events
}

// messageID and toolUseID are stable ids in the shapes Anthropic uses.
func messageID(conversation string, index int) string {
	return fmt.Sprintf("msg_%s", stableID("msg/"+conversation, index, 0))
}

func toolUseID(conversation string, index, i int) string {
	return fmt.Sprintf("toolu_%s", stableID(conversation, index, i))
}

func stableID(conversation string, index, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", conversation, index, i)
	return fmt.Sprintf("%016x%08d", h.Sum64(), index*100+i)
}
