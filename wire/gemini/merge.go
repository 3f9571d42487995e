package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

// ErrMalformedFunctionCall is matched (errors.Is) by the error of a stream
// that ends with finishReason MALFORMED_FUNCTION_CALL and no call: the model
// meant to call a tool, Gemini could not parse the call and sent none of it,
// so the turn is neither an answer nor a tool turn (asking again may work).
var ErrMalformedFunctionCall = errors.New("finishReason MALFORMED_FUNCTION_CALL: the model's call did not parse and Gemini sent none of it (asking again may work)")

// truncatedGemini is the ErrTruncatedStream of the Gemini format.
type truncatedGemini struct{}

func (truncatedGemini) Error() string { return "stream ended without a finishReason" }

func (truncatedGemini) Is(target error) bool { return target == agent.ErrTruncatedStream }

// response is one streamed GenerateContentResponse; only what the merger
// reads.
type response struct {
	Candidates     []candidate     `json:"candidates"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	PromptFeedback *promptFeedback `json:"promptFeedback"`
	Error          json.RawMessage `json:"error"`
}

type candidate struct {
	Content      *candidateContent `json:"content"`
	FinishReason string            `json:"finishReason"`
	Index        int               `json:"index"`
}

// candidateContent is a candidate's content as the merger reads it: its
// parts (the role is always "model").
type candidateContent struct {
	Parts []part `json:"parts"`
}

type promptFeedback struct {
	BlockReason string `json:"blockReason"`
}

type usageMetadata struct {
	PromptTokenCount     int `json:"promptTokenCount"`
	CandidatesTokenCount int `json:"candidatesTokenCount"`
	ThoughtsTokenCount   int `json:"thoughtsTokenCount,omitempty"`
	TotalTokenCount      int `json:"totalTokenCount"`
}

// Merge reads a raw Gemini SSE stream (streamGenerateContent?alt=sse) and
// merges it into one turn; see the package documentation for the rules. On
// error it returns what was merged so far together with the error: a
// *agent.StreamError for an error object or an error event, an error
// matching agent.ErrTruncatedStream for a stream that ends before a
// finishReason, ErrMalformedFunctionCall, or a read or decode error.
func Merge(r io.Reader) (*agent.Turn, error) {
	var m merger
	_, err := sse.Each(r, func(data []byte, isError bool) (bool, error) {
		switch {
		case isError:
			return false, agent.EventError(data)
		case string(data) == "[DONE]":
			return false, nil
		}
		return false, m.add(data)
	})
	if err != nil {
		return m.turn(), err
	}
	if m.t.FinishReason == "" {
		return m.turn(), truncatedGemini{}
	}
	if m.t.FinishReason == "MALFORMED_FUNCTION_CALL" && len(m.t.ToolCalls) == 0 {
		return m.turn(), ErrMalformedFunctionCall
	}
	return m.turn(), nil
}

// merger holds the turn being merged.
type merger struct {
	t         agent.Turn
	calls     int  // calls merged so far, for the ids made up for calls without one
	continued bool // a functionCall without a name continued the call before it
	others    bool // a candidate other than the first was dropped
}

// add merges one event's data: read by the fast path (scanResponse) when
// it understands it, else by encoding/json.
func (m *merger) add(data []byte) error {
	var ev response
	if !scanResponse(data, &ev) {
		ev = response{}
		if err := json.Unmarshal(data, &ev); err != nil {
			return fmt.Errorf("decoding event %q: %w", clip(data), err)
		}
	}
	if len(ev.Error) > 0 && string(ev.Error) != "null" {
		return streamError(ev.Error, data)
	}
	for _, c := range ev.Candidates {
		if c.Index != 0 {
			m.others = true
			continue
		}
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				m.part(p)
			}
		}
		if m.t.FinishReason == "" {
			m.t.FinishReason = c.FinishReason
		}
	}
	if f := ev.PromptFeedback; f != nil && f.BlockReason != "" && m.t.FinishReason == "" {
		m.t.FinishReason = f.BlockReason
		m.t.Warnings = append(m.t.Warnings, "the prompt was blocked (promptFeedback.blockReason "+f.BlockReason+"): no candidate came")
	}
	if u := ev.UsageMetadata; u != nil {
		m.t.Usage = &agent.Usage{PromptTokens: u.PromptTokenCount, CompletionTokens: u.CandidatesTokenCount + u.ThoughtsTokenCount, TotalTokens: u.TotalTokenCount}
	}
	return nil
}

// part merges one part of the first candidate.
func (m *merger) part(p part) {
	switch {
	case p.FunctionCall != nil:
		m.call(p)
		return
	case p.Thought && p.Text != nil:
		n := len(m.t.Thinking)
		if n > 0 && m.t.Thinking[n-1].Type == agent.ThinkingReasoning {
			m.t.Thinking[n-1].Text += *p.Text
		} else {
			m.t.Thinking = append(m.t.Thinking, agent.Thinking{Type: agent.ThinkingReasoning, Text: *p.Text})
		}
	case p.Text != nil:
		m.t.Text += *p.Text
	}
	if p.ThoughtSignature != "" {
		m.t.Thinking = append(m.t.Thinking, agent.Thinking{Type: agent.ThinkingRedacted, Data: p.ThoughtSignature})
	}
}

// call merges a functionCall part: a named one is a new call, whole; one
// without a name continues the call before it (its args members laid over
// the earlier ones), as a proxy that splits a call's args sends it.
func (m *merger) call(p part) {
	fc := p.FunctionCall
	args := compactArgs(fc.Args)
	n := len(m.t.ToolCalls)
	if fc.Name == "" && n > 0 {
		last := &m.t.ToolCalls[n-1]
		last.Function.Arguments = mergeArgs(last.Function.Arguments, args)
		if p.ThoughtSignature != "" && len(last.ExtraContent) == 0 {
			last.ExtraContent = WithSignature(p.ThoughtSignature)
		}
		if !m.continued {
			m.continued = true
			m.t.Warnings = append(m.t.Warnings, "a functionCall part without a name continued the call before it (its args were merged into that call's)")
		}
		return
	}
	id := fc.ID
	if id == "" {
		id = CallID(m.calls)
	}
	m.calls++
	m.t.ToolCalls = append(m.t.ToolCalls, agent.ToolCall{ID: id, Type: "function", Function: agent.FunctionCall{Name: fc.Name, Arguments: args}, ExtraContent: WithSignature(p.ThoughtSignature)})
	m.t.ToolTurn = true
}

// CallID is the id a call without one gets: call_<position> (0-based, in
// the turn), the same on every read of the same stream.
func CallID(position int) string { return fmt.Sprintf("call_%d", position) }

// compactArgs is an args member as compact JSON text, "{}" when absent or
// null; args that are a JSON string are that string's text (what Write
// sends for arguments that are not JSON, which Gemini's object cannot
// carry).
func compactArgs(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return string(raw) // valid (the decoder checked it) and already compact
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// mergeArgs lays the members of the object more over those of the object
// base, in base's order with new members after; when either is not an
// object, more replaces base unless it is empty.
func mergeArgs(base, more string) string {
	if more == "{}" {
		return base
	}
	var b, o orderedObject
	if base == "{}" || json.Unmarshal([]byte(base), &b) != nil || json.Unmarshal([]byte(more), &o) != nil {
		return more
	}
	for _, kv := range o {
		b = b.set(kv.key, kv.value)
	}
	out, err := b.MarshalJSON()
	if err != nil {
		return more
	}
	return string(out)
}

// streamError reads Google's error object, {"code","message","status"}, as
// a StreamError: its status is the type, its code the code.
func streamError(member, data []byte) error {
	var e struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
		Status  string          `json:"status"`
	}
	if json.Unmarshal(member, &e) != nil || e.Message == "" {
		return agent.MemberError(member, data)
	}
	code := string(e.Code)
	if code == "null" {
		code = ""
	}
	return &agent.StreamError{Message: e.Message, Type: e.Status, Code: code}
}

// clip is data cut to 200 bytes, for messages.
func clip(data []byte) string {
	if len(data) > 200 {
		return string(data[:200]) + "…"
	}
	return string(data)
}

// turn is the turn merged so far, with the warnings the whole stream
// earned.
func (m *merger) turn() *agent.Turn {
	t := m.t
	t.Warnings = append([]string(nil), m.t.Warnings...)
	if m.others {
		t.Warnings = append(t.Warnings, "candidates other than the first (index > 0) were dropped")
	}
	if len(t.Warnings) == 0 {
		t.Warnings = nil
	}
	return &t
}
