package gemini

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/internal/piece"
)

// streamResponse is one GenerateContentResponse in the member order Google
// sends.
type streamResponse struct {
	Candidates    []streamCandidate `json:"candidates"`
	UsageMetadata *usageMetadata    `json:"usageMetadata,omitempty"`
	ModelVersion  string            `json:"modelVersion"`
	ResponseID    string            `json:"responseId"`
}

type streamCandidate struct {
	Content      streamContent `json:"content"`
	FinishReason string        `json:"finishReason,omitempty"`
	Index        int           `json:"index"`
}

// streamContent is a candidate's content, parts before role as Google
// sends it.
type streamContent struct {
	Parts []part `json:"parts"`
	Role  string `json:"role"`
}

// Write renders t as the events of a clean Gemini stream ("data: {...}"
// each, CRLF framed as Google sends it): the text in pieces, one part per
// event, then every call whole in one event (its id, or one made from the
// conversation, the turn and its position; its thought signature on its
// part); the last event carries the finishReason
// (t.FinishReason, else STOP, which Gemini sends with and without calls) and
// the usageMetadata. Arguments that are not valid JSON (a scripted broken
// call) are written as a JSON string, which Gemini itself never sends and
// Merge reads back as the same text. Reasoning is not written.
func Write(model, conversation string, index int, t *agent.Turn) []string {
	id := responseID(conversation, index)
	var parts [][]part
	for _, p := range piece.Split(t.Text, piece.TextRunes) {
		parts = append(parts, []part{textPart(p)})
	}
	if calls := callParts(conversation, index, t); len(calls) > 0 {
		parts = append(parts, calls)
	}
	if len(parts) == 0 {
		parts = [][]part{{textPart("")}}
	}
	var events []string
	for i, p := range parts {
		r := streamResponse{Candidates: []streamCandidate{{Content: streamContent{Parts: p, Role: "model"}}}, ModelVersion: model, ResponseID: id}
		if i == len(parts)-1 {
			r.Candidates[0].FinishReason, r.UsageMetadata = finishOf(t), usageOf(index, t)
		}
		b, err := marshal(r)
		if err != nil {
			panic(err) // plain structs of strings, ints and valid JSON always marshal
		}
		events = append(events, "data: "+string(b)+"\r\n\r\n")
	}
	return events
}

// responseID is a stable responseId in the shape Gemini uses (22
// characters of letters and digits).
func responseID(conversation string, index int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "gemini/%s/%d", conversation, index)
	return fmt.Sprintf("%016x%06d", h.Sum64(), index)
}

// writtenCallID is the id Write gives a call without one.
func writtenCallID(conversation string, index, i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d/%d", conversation, index, i)
	return fmt.Sprintf("fc_%016x%04d", h.Sum64(), index*100+i)
}

// writtenArgs is a call's arguments as Write sends them: the JSON itself, or
// the text as a JSON string when it is not valid JSON.
func writtenArgs(args string) json.RawMessage {
	if args != "" && !json.Valid([]byte(args)) {
		b, _ := marshal(args)
		return b
	}
	return argsObject(args)
}

// callParts are t's calls as functionCall parts, each with its signature; a
// call without an id gets the one the writer makes.
func callParts(conversation string, index int, t *agent.Turn) []part {
	var calls []part
	for i, c := range t.ToolCalls {
		if c.ID == "" {
			c.ID = writtenCallID(conversation, index, i)
		}
		calls = append(calls, part{FunctionCall: &functionCall{ID: c.ID, Name: c.Function.Name, Args: writtenArgs(c.Function.Arguments)}, ThoughtSignature: Signature(c)})
	}
	return calls
}

// finishOf is t's finishReason as written: its own, else STOP.
func finishOf(t *agent.Turn) string {
	if t.FinishReason != "" {
		return t.FinishReason
	}
	return "STOP"
}

// usageOf is the usage the writer reports for turn index of t.
func usageOf(index int, t *agent.Turn) *usageMetadata {
	out := 10 + len(t.Text)/4
	return &usageMetadata{PromptTokenCount: 100 * (index + 1), CandidatesTokenCount: out, TotalTokenCount: 100*(index+1) + out}
}
