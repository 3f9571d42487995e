package conform

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// The echo tier: streams that carry something the agent must send back on
// later requests, because the provider answers 400 when it does not. Both
// merge into the clean turn; the checks then read every follow-up request's
// tool-call turn.
//
//   - echo_signature: each call's first piece carries
//     extra_content.google.thought_signature (Gemini's OpenAI-compatible
//     endpoint); the call must carry the same extra_content back.
//   - echo_reasoning: the turn begins with delta.reasoning_content
//     (DeepSeek's thinking mode); the assistant message that made the calls
//     must carry it back as reasoning_content.
//
// conform's server does not refuse a request without the echo (the agent
// finishes either way); the case fails instead.

// The echo each case wants.
const (
	echoSignature = "thought_signature"
	echoReasoning = "reasoning_content"
)

// probeReasoning is the reasoning echo_reasoning streams before the
// probe's text.
const probeReasoning = "Two reads at once will answer this."

func echoCases() []Case {
	return []Case{
		{ID: "echo_signature", Tier: TierEcho, Expect: ExpectEcho, Echo: echoSignature, Transform: addSignatures,
			Source: "ai.google.dev thought-signatures, continuedev/continue #8785",
			Doc:    "each call carries extra_content.google.thought_signature; later requests must send it back on that call (Gemini answers 400 without it)"},
		{ID: "echo_reasoning", Tier: TierEcho, Expect: ExpectEcho, Echo: echoReasoning, Transform: addReasoning,
			Source: "opencode #24083, #9397",
			Doc:    "delta.reasoning_content before the turn; later requests must send it back as the tool-call turn's reasoning_content (DeepSeek's thinking mode answers 400 without it)"},
	}
}

// signatureFor is the thought signature of the k-th call (from 0) of a turn.
func signatureFor(k int) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("conform thought signature %d", k+1)))
}

// addSignatures gives the first piece (the one with an id) of every call
// extra_content.google.thought_signature, numbered in stream order.
func addSignatures(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	k := 0
	for i, ev := range events {
		chunk, ok := decodeChunk(ev)
		if !ok {
			continue
		}
		changed := false
		for _, ch := range asSlice(chunk["choices"]) {
			delta, _ := asMap(ch)["delta"].(map[string]any)
			for _, tc := range asSlice(delta["tool_calls"]) {
				if call := asMap(tc); call["id"] != nil && call["id"] != "" {
					call["extra_content"] = map[string]any{"google": map[string]any{"thought_signature": signatureFor(k)}}
					k++
					changed = true
				}
			}
		}
		if changed {
			if err := encodeChunk(&events[i], chunk); err != nil {
				return nil, err
			}
		}
	}
	if k == 0 {
		return nil, fmt.Errorf("no call to sign: %w", quirk.ErrNotApplicable)
	}
	return sse.Format(events, "\n"), nil
}

// addReasoning puts a chunk with delta.reasoning_content after the first
// chunk, in its envelope.
func addReasoning(body []byte, _ int64) ([]byte, error) {
	events := sse.Parse(body)
	for i, ev := range events {
		chunk, ok := decodeChunk(ev)
		if !ok {
			continue
		}
		chunk["choices"] = []any{map[string]any{"index": 0, "delta": map[string]any{"reasoning_content": probeReasoning}, "finish_reason": nil}}
		delete(chunk, "usage")
		extra := sse.Event{HasData: true}
		if err := encodeChunk(&extra, chunk); err != nil {
			return nil, err
		}
		out := append(append(append([]sse.Event(nil), events[:i+1]...), extra), events[i+1:]...)
		return sse.Format(out, "\n"), nil
	}
	return nil, fmt.Errorf("no chunk: %w", quirk.ErrNotApplicable)
}

func decodeChunk(ev sse.Event) (map[string]any, bool) {
	if !ev.HasData || !strings.HasPrefix(strings.TrimSpace(ev.Data), "{") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(ev.Data))
	dec.UseNumber()
	var chunk map[string]any
	return chunk, dec.Decode(&chunk) == nil
}

func encodeChunk(ev *sse.Event, chunk map[string]any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(chunk); err != nil {
		return err
	}
	ev.Data, ev.HasData = strings.TrimSuffix(b.String(), "\n"), true
	return nil
}

// bumpIndex adds one to the integer event[key], when the event has one.
func bumpIndex(event map[string]any, key string) error {
	n, ok := event[key].(json.Number)
	if !ok {
		return nil
	}
	i, err := n.Int64()
	if err != nil {
		return err
	}
	event[key] = i + 1
	return nil
}

// eventsOf encodes each event as an SSE event named by its type.
func eventsOf(events ...map[string]any) ([]sse.Event, error) {
	var out []sse.Event
	for _, e := range events {
		ev := sse.Event{Name: fmt.Sprint(e["type"])}
		if err := encodeChunk(&ev, e); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func asSlice(v any) []any        { s, _ := v.([]any); return s }
func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// checkEcho checks that every request carrying the tool turn sends back
// what the case's stream asked for. Its verdict's details say, on success,
// what was sent back.
func checkEcho(c Case, o outcome) (verdict, bool) {
	reasoningSent := false
	for n, r := range o.requests {
		a := firstAssistant(r.req)
		if a < 0 {
			continue
		}
		m := r.req.Messages[a]
		switch c.Echo {
		case echoReasoningItem:
			v, sent, ok := checkReasoningItems(n+1, r.req, m, reasoningItemID(probeResponseID))
			if !ok {
				return v, false
			}
			reasoningSent = reasoningSent || sent
		case echoSignature, echoPartSignature:
			where := "its thought_signature in extra_content"
			if c.Echo == echoPartSignature {
				where = "its thoughtSignature on its functionCall part"
			}
			for i, call := range m.Calls {
				got, want := signatureOf(call.Extra), signatureFor(i)
				switch {
				case got == "":
					return fail("request %d: call %d (%s) does not send back %s (Gemini answers 400)", n+1, i+1, call.Name, where), false
				case got != want:
					return fail("request %d: call %d (%s) sends back the thought_signature %q, not %q", n+1, i+1, call.Name, got, want), false
				}
			}
		case echoThinking:
			if v, ok := checkThinking(n+1, m); !ok {
				return v, false
			}
		case echoReasoning:
			switch {
			case m.Reasoning == "":
				return fail("request %d: the tool-call turn does not send back its reasoning_content (DeepSeek answers 400)", n+1), false
			case m.Reasoning != probeReasoning:
				return fail("request %d: the tool-call turn sends back the reasoning_content %q, not %q", n+1, m.Reasoning, probeReasoning), false
			}
		}
	}
	switch {
	case c.Echo != echoReasoningItem:
		return verdict{details: c.Echo + " sent back"}, true
	case reasoningSent:
		return verdict{details: "the reasoning item sent back before its calls"}, true
	}
	return verdict{details: "calls sent by call_id without reasoning items (valid: the model does not see its reasoning again)"}, true
}

// signatureOf reads extra_content.google.thought_signature, "" when absent.
func signatureOf(extra json.RawMessage) string {
	var e struct {
		Google struct {
			ThoughtSignature string `json:"thought_signature"`
		} `json:"google"`
	}
	if json.Unmarshal(extra, &e) != nil {
		return ""
	}
	return e.Google.ThoughtSignature
}
