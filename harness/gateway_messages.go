package harness

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
)

// msgEvent is one Messages stream event in the member order Anthropic sends.
type msgEvent struct {
	Type         string          `json:"type"`
	Message      *msgMessage     `json:"message,omitempty"`
	Index        *int            `json:"index,omitempty"`
	ContentBlock json.RawMessage `json:"content_block,omitempty"`
	Delta        json.RawMessage `json:"delta,omitempty"`
	Usage        *msgUsage       `json:"usage,omitempty"`
}

type msgMessage struct {
	ID           string    `json:"id"`
	Type         string    `json:"type"`
	Role         string    `json:"role"`
	Model        string    `json:"model"`
	Content      []any     `json:"content"`
	StopReason   *string   `json:"stop_reason"`
	StopSequence *string   `json:"stop_sequence"`
	Usage        *msgUsage `json:"usage"`
}

type msgUsage struct {
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens"`
}

// StreamMessagesReply renders one scripted reply as the events of a clean
// Anthropic Messages stream ("event: T\ndata: {...}\n\n" each): message_start,
// a ping, a text block in pieces, then per call a tool_use block that starts
// with the {} input placeholder and an empty first partial_json, its
// arguments in pieces; message_delta with stop_reason (tool_use with calls,
// end_turn without) and message_stop. The same inputs always give the same
// bytes.
func StreamMessagesReply(model, script string, turn int, r Reply) []string {
	var events []string
	emit := func(e msgEvent) {
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
	emit(msgEvent{Type: "message_start", Message: &msgMessage{ID: messageID(script, turn), Type: "message", Role: "assistant",
		Model: model, Content: []any{}, Usage: &msgUsage{InputTokens: 100 * (turn + 1), OutputTokens: 1}}})
	emit(msgEvent{Type: "ping"})
	index := 0
	if r.Text != "" {
		i := index
		emit(msgEvent{Type: "content_block_start", Index: &i, ContentBlock: raw(typedText{"text", ""})})
		for _, piece := range splitRunes(r.Text, textPieceRunes) {
			emit(msgEvent{Type: "content_block_delta", Index: &i, Delta: raw(typedText{"text_delta", piece})})
		}
		emit(msgEvent{Type: "content_block_stop", Index: &i})
		index++
	}
	for c, call := range r.Calls {
		i := index
		emit(msgEvent{Type: "content_block_start", Index: &i, ContentBlock: raw(struct {
			Type  string   `json:"type"`
			ID    string   `json:"id"`
			Name  string   `json:"name"`
			Input struct{} `json:"input"`
		}{"tool_use", toolUseID(script, turn, c), call.Name, struct{}{}})})
		for _, piece := range append([]string{""}, splitRunes(call.Arguments, argsPieceRunes)...) {
			emit(msgEvent{Type: "content_block_delta", Index: &i, Delta: raw(struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
			}{"input_json_delta", piece})})
		}
		emit(msgEvent{Type: "content_block_stop", Index: &i})
		index++
	}
	stop := "end_turn"
	if len(r.Calls) > 0 {
		stop = "tool_use"
	}
	if r.FinishReason != "" {
		stop = r.FinishReason
	}
	emit(msgEvent{Type: "message_delta", Delta: raw(map[string]any{"stop_reason": stop, "stop_sequence": nil}),
		Usage: &msgUsage{OutputTokens: 10 + len(r.Text)/4}})
	emit(msgEvent{Type: "message_stop"})
	return events
}

// typedText is {"type","text"} in that order, as Anthropic sends it.
type typedText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// messageID and toolUseID are stable ids in the shapes Anthropic uses.
func messageID(script string, turn int) string {
	return fmt.Sprintf("msg_%s", stableID("msg/"+script, turn, 0))
}

func toolUseID(script string, turn, i int) string {
	return fmt.Sprintf("toolu_%s", stableID(script, turn, i))
}

func stableID(script string, turn, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", script, turn, i)
	return fmt.Sprintf("%016x%08d", h.Sum64(), turn*100+i)
}

// writeMessagesError answers with an Anthropic-shaped error body:
// {"type":"error","error":{"type":..,"message":..}}.
func writeMessagesError(w http.ResponseWriter, status int, code, message string) {
	typ := map[int]string{
		http.StatusUnauthorized: "authentication_error", http.StatusNotFound: "not_found_error",
		http.StatusTooManyRequests: "rate_limit_error", http.StatusInternalServerError: "api_error", 529: "overloaded_error",
	}[status]
	if typ == "" {
		typ = "invalid_request_error"
		if status >= 500 {
			typ = "api_error"
		}
	}
	body, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": message}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
