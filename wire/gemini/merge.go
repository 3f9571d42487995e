package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire/internal/sse"
)

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
	Content       *candidateContent `json:"content"`
	FinishReason  string            `json:"finishReason"`
	FinishMessage string            `json:"finishMessage"`
	Index         int               `json:"index"`
}

// candidateContent is a candidate's content as the merger reads it: its
// parts (the role is always "model").
type candidateContent struct {
	Parts []part `json:"parts"`
}

type promptFeedback struct {
	BlockReason        string `json:"blockReason"`
	BlockReasonMessage string `json:"blockReasonMessage"`
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
			return false, eventError(data)
		case string(data) == "[DONE]":
			return false, nil
		}
		return false, m.add(data)
	})
	if err != nil {
		return m.turn(), err
	}
	err = m.end()
	return m.turn(), err
}

// merger holds the turn being merged.
type merger struct {
	t            agent.Turn
	calls        int       // calls merged so far, for the ids made up for calls without one
	continued    bool      // a functionCall without a name continued the call before it
	others       bool      // a candidate other than the first was dropped
	open         *openCall // the call whose arguments are streaming, nil when none
	lastStreamed *openCall // the streamed call that ended last, which a nameless part may continue

	finishMessage             string // the last candidate's finishMessage
	blockReason, blockMessage string // promptFeedback's, when the prompt was blocked
}

// finish reads a candidate's finishReason: the last one the stream sends is
// the turn's, since Gemini may send a finishReason and go on (code
// execution sends STOP between its parts); a later one that differs from
// an earlier one is noted.
func (m *merger) finish(c candidate) {
	if c.FinishReason == "" {
		return
	}
	if had := m.t.FinishReason; had != "" && had != c.FinishReason && m.blockReason == "" {
		m.note("finishReason " + had + " came, then " + c.FinishReason + ": the last one is the turn's")
	}
	m.t.FinishReason = c.FinishReason
	if c.FinishMessage != "" {
		m.finishMessage = c.FinishMessage
	}
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
				if err := m.part(p); err != nil {
					return err
				}
			}
		}
		m.finish(c)
	}
	if f := ev.PromptFeedback; f != nil && f.BlockReason != "" && m.blockReason == "" {
		m.blockReason, m.blockMessage = f.BlockReason, f.BlockReasonMessage
		if m.t.FinishReason == "" {
			m.t.FinishReason = f.BlockReason
		}
		m.t.Warnings = append(m.t.Warnings, "the prompt was blocked (promptFeedback.blockReason "+f.BlockReason+")")
	}
	if u := ev.UsageMetadata; u != nil {
		m.t.Usage = &agent.Usage{PromptTokens: u.PromptTokenCount, CompletionTokens: u.CandidatesTokenCount + u.ThoughtsTokenCount, TotalTokens: u.TotalTokenCount}
	}
	return nil
}

// part merges one part of the first candidate.
func (m *merger) part(p part) error {
	switch {
	case p.FunctionCall != nil:
		return m.call(p)
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
	return nil
}

// call merges a functionCall part. A part with partialArgs or
// willContinue streams a call's arguments (see streamed); an empty
// functionCall ({}) ends the call being streamed; otherwise a named part is
// a new call, whole, and one without a name continues the call before it
// (its args members laid over the earlier ones), as a proxy that splits a
// call's args sends it.
func (m *merger) call(p part) error {
	fc := p.FunctionCall
	args := compactArgs(fc.Args)
	if m.open != nil || len(fc.PartialArgs) > 0 || fc.WillContinue {
		return m.streamed(p, args)
	}
	n := len(m.t.ToolCalls)
	if fc.Name == "" && fc.ID == "" && args == "{}" {
		return nil // the end of a streamed call that already ended: nothing to merge
	}
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
		return nil
	}
	m.newCall(p, args)
	return nil
}

// newCall appends the call a named functionCall part opens.
func (m *merger) newCall(p part, args string) {
	fc := p.FunctionCall
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

// eventError is an error event's error: Google's {"error":{…}} read as
// streamError reads it (an unframed error line is one), anything else as
// agent.EventError reads it.
func eventError(data []byte) error {
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &env) == nil && len(env.Error) > 0 && env.Error[0] == '{' {
		return streamError(env.Error, data)
	}
	return agent.EventError(data)
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
	if o := m.open; o != nil {
		t.ToolCalls = append([]agent.ToolCall(nil), m.t.ToolCalls...)
		t.ToolCalls[o.i].Function.Arguments = o.args.JSON()
	}
	if m.others {
		t.Warnings = append(t.Warnings, "candidates other than the first (index > 0) were dropped")
	}
	if len(t.Warnings) == 0 {
		t.Warnings = nil
	}
	return &t
}
