package converse

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/piece"
)

// Write renders t as the events of a clean ConverseStream stream in the
// logical form ("event: T\ndata: {"T":{...}}\n\n" each): messageStart;
// the text at block 0 in pieces (Bedrock sends a text block no start);
// per call a contentBlockStart with its toolUseId and name, its input in
// pieces and a contentBlockStop; messageStop with the stop reason
// (t.FinishReason, else tool_use with calls and end_turn without) and
// metadata with the usage. Reasoning is not written.
func Write(model, conversation string, index int, t *agent.Turn) []string {
	var events []string
	emit := func(typ string, payload any) {
		b, err := json.Marshal(map[string]any{typ: payload})
		if err != nil {
			panic(err) // maps of strings, ints and such always marshal
		}
		events = append(events, "event: "+typ+"\ndata: "+string(b)+"\n\n")
	}
	emit("messageStart", map[string]string{"role": agent.RoleAssistant})
	block := 0
	if t.Text != "" {
		for _, p := range piece.Split(t.Text, piece.TextRunes) {
			emit("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]string{"text": p}})
		}
		emit("contentBlockStop", map[string]int{"contentBlockIndex": block})
		block++
	}
	for c, tc := range t.ToolCalls {
		id := tc.ID
		if id == "" {
			id = toolUseID(conversation, index, c)
		}
		emit("contentBlockStart", map[string]any{"contentBlockIndex": block, "start": map[string]any{"toolUse": map[string]string{"toolUseId": id, "name": tc.Function.Name}}})
		for _, p := range piece.Split(tc.Function.Arguments, piece.ArgsRunes) {
			emit("contentBlockDelta", map[string]any{"contentBlockIndex": block, "delta": map[string]any{"toolUse": map[string]string{"input": p}}})
		}
		emit("contentBlockStop", map[string]int{"contentBlockIndex": block})
		block++
	}
	emit("messageStop", map[string]string{"stopReason": stopReason(t)})
	in, out := 100*(index+1), 10+len(t.Text)/4
	emit("metadata", map[string]any{"usage": map[string]int{"inputTokens": in, "outputTokens": out, "totalTokens": in + out}, "metrics": map[string]int{"latencyMs": 0}})
	return events
}

func stopReason(t *agent.Turn) string {
	switch {
	case t.FinishReason != "":
		return t.FinishReason
	case len(t.ToolCalls) > 0:
		return "tool_use"
	}
	return "end_turn"
}

// Response renders t as the body of a non-streamed Converse answer, with
// the ids and stop reason Write gives the same turn.
func Response(model, conversation string, index int, t *agent.Turn) []byte {
	content := []block{}
	if t.Text != "" {
		text := t.Text
		content = append(content, block{Text: &text})
	}
	for c, tc := range t.ToolCalls {
		id := tc.ID
		if id == "" {
			id = toolUseID(conversation, index, c)
		}
		content = append(content, block{ToolUse: &toolUse{ToolUseID: id, Name: tc.Function.Name, Input: input(tc.Function.Arguments)}})
	}
	in, out := 100*(index+1), 10+len(t.Text)/4
	body, _ := json.Marshal(map[string]any{
		"output":     map[string]any{"message": message{Role: agent.RoleAssistant, Content: content}},
		"stopReason": stopReason(t),
		"usage":      map[string]int{"inputTokens": in, "outputTokens": out, "totalTokens": in + out},
		"metrics":    map[string]int{"latencyMs": 0},
	})
	return body
}

// toolUseID is a stable id in the shape Bedrock uses ("tooluse_" and 22
// characters).
func toolUseID(conversation string, index, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", conversation, index, i)
	return fmt.Sprintf("tooluse_%016x%06d", h.Sum64(), index*100+i)
}
