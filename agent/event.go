package agent

import (
	"strings"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/tools"
)

// EventKind names what an Event reports.
type EventKind string

// The events of a run, in this order within a turn: a "warning" for each
// shape the merger noticed and worked around (Turn.Warnings); the model's
// "reasoning" when it sent any (shown apart, never answer text); its "text"
// when it sent any (it speaks before it acts, as a terminal shows it); then
// for each call (sorted as merged) a "call" then its "result"; then
// "turn_end".
const (
	KindCall      EventKind = "call"
	KindResult    EventKind = "result"
	KindReasoning EventKind = "reasoning"
	KindText      EventKind = "text"
	KindTurnEnd   EventKind = "turn_end"
	KindWarning   EventKind = "warning"
)

// SummaryRunes is the most runes of a result's first line an Event carries.
const SummaryRunes = 100

// Event is something a renderer can show. It marshals to
//
//	{"kind":"call","turn":1,"call":{"id":..,"name":..,"arguments":..}}
//	{"kind":"result","turn":1,"call":{..},"result":{"chars":N,"is_error":false,"summary":"..","truncated":false,"original_chars":N}}
//	{"kind":"reasoning","turn":2,"text":".."}
//	{"kind":"text","turn":2,"text":".."}
//	{"kind":"warning","turn":2,"text":".."}
//	{"kind":"turn_end","turn":2,"finish_reason":"stop","tool_calls":0}
type Event struct {
	Kind         EventKind    `json:"kind"`
	Turn         int          `json:"turn"` // 1-based request number
	Call         *EventCall   `json:"call,omitempty"`
	Result       *EventResult `json:"result,omitempty"`
	Text         string       `json:"text,omitempty"`          // text: the model's; warning: the merger's
	FinishReason string       `json:"finish_reason,omitempty"` // turn_end
	ToolCalls    int          `json:"tool_calls,omitempty"`    // turn_end: calls run in the turn
}

// EventCall is the call of a "call" or "result" event.
type EventCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// EventResult describes a tool result: Chars is the length of the content fed
// back, in runes; Summary its first line, cut to SummaryRunes with "…".
type EventResult struct {
	Chars         int    `json:"chars"`
	IsError       bool   `json:"is_error"`
	Summary       string `json:"summary"`
	Truncated     bool   `json:"truncated"`
	OriginalChars int    `json:"original_chars"`
}

func eventCall(c ToolCall) *EventCall {
	return &EventCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments}
}

func eventResult(r tools.Result) *EventResult {
	return &EventResult{
		Chars:         r.Chars(),
		IsError:       r.IsError,
		Summary:       firstLine(r.Content),
		Truncated:     r.Meta.Truncated,
		OriginalChars: r.Meta.OriginalChars,
	}
}

// firstLine is s up to its first line end, cut to SummaryRunes runes.
func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) <= SummaryRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == SummaryRunes-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
