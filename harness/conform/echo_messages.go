package conform

import (
	"fmt"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/sse"
)

// messages_echo_thinking, the Messages echo case: every turn begins with a
// thinking block (extended thinking), its text in thinking_delta pieces and
// its signature in a signature_delta, and the other blocks move one index
// up. The assistant message that made the calls must send the block back
// unchanged, signature included, as its first block: with thinking on,
// Anthropic answers 400 otherwise.

// echoThinking names what messages_echo_thinking wants back.
const echoThinking = "thinking"

// probeSignature is the signature of the probe's thinking block.
const probeSignature = "Y29uZm9ybSB0aGlua2luZyBzaWduYXR1cmU="

func messagesEchoCase() Case {
	return Case{ID: "messages_echo_thinking", Tier: TierEcho, Expect: ExpectEcho, Echo: echoThinking, Transform: addThinkingBlock,
		Source: "anomalyco/opencode #3077, mastra-ai/mastra #7799",
		Doc:    "a thinking block with its signature before the turn; later requests must send it back unchanged as the first block of the tool-call turn (Anthropic answers 400 without it)"}
}

// addThinkingBlock inserts a thinking block at index 0 after message_start
// and moves every other block one index up.
func addThinkingBlock(body []byte, _ int64) ([]byte, error) {
	var out []sse.Event
	inserted := false
	for _, ev := range sse.Parse(body) {
		chunk, ok := decodeChunk(ev)
		if !ok {
			out = append(out, ev)
			continue
		}
		if _, indexed := chunk["index"]; indexed {
			if err := bumpIndex(chunk, "index"); err != nil {
				return nil, err
			}
			if err := encodeChunk(&ev, chunk); err != nil {
				return nil, err
			}
		}
		out = append(out, ev)
		if chunk["type"] == "message_start" && !inserted {
			block, err := eventsOf( // the thinking block, as Anthropic streams it
				map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}},
				map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "thinking_delta", "thinking": probeReasoning[:10]}},
				map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "thinking_delta", "thinking": probeReasoning[10:]}},
				map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "signature_delta", "signature": probeSignature}},
				map[string]any{"type": "content_block_stop", "index": 0})
			if err != nil {
				return nil, err
			}
			out, inserted = append(out, block...), true
		}
	}
	if !inserted {
		return nil, fmt.Errorf("no message_start: %w", quirk.ErrNotApplicable)
	}
	return sse.Format(out, "\n"), nil
}

// checkThinking is checkEcho for messages_echo_thinking on the tool-call
// turn m of request n.
func checkThinking(n int, m Message) (verdict, bool) {
	switch {
	case m.Reasoning == "" && len(m.Signatures) == 0:
		return fail("request %d: the tool-call turn does not send back its thinking block (Anthropic answers 400 when thinking is on)", n), false
	case m.Reasoning != probeReasoning || len(m.Signatures) != 1 || m.Signatures[0] != probeSignature:
		return fail("request %d: the tool-call turn sends back the thinking %q with the signatures %q, not %q signed %q", n, m.Reasoning, m.Signatures, probeReasoning, probeSignature), false
	case !m.ThinkingFirst:
		return fail("request %d: the thinking block is not the first block of the tool-call turn (Anthropic answers 400)", n), false
	}
	return verdict{}, true
}
