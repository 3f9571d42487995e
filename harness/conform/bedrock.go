package conform

import (
	"slices"

	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/harness/rechunk"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// bedrockFormat is Anthropic's Messages API on Amazon Bedrock: the same
// requests (less "model" and "stream", which the path says) read the same
// way, the same events in Bedrock's event stream framing.
var bedrockFormat = Format{Format: messages.Bedrock, Read: readMessages, cases: BedrockCases, cut: messagesCutPoint, renumber: renumberMessages, dir: "bedrock"}

// linesOnly are the Messages quirks whose whole shape is in the SSE lines
// (their ends, the event: lines): Bedrock's framing carries each event's
// data alone, so on Bedrock they serve the clean stream.
var linesOnly = []string{"messages_crlf", "messages_no_event_lines"}

// BedrockCases returns the Bedrock catalog in report order: the clean
// turn; every Messages case but the line-only ones (each quirk applies to
// the events before they are framed: an error event becomes an exception
// message); the framing's own quirks; the clean stream written a byte at a
// time and all in one write; then the faults.
func BedrockCases() []Case {
	cases := []Case{{ID: "bedrock_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as Bedrock streams it: each Anthropic event base64 in a chunk of an AWS event stream"}}
	for _, c := range MessagesCases()[1:] {
		if c.Tier == TierFault {
			continue // the faults follow, named for Bedrock
		}
		if !slices.Contains(linesOnly, c.ID) {
			cases = append(cases, c)
		}
	}
	for _, q := range quirk.OfAPI(messages.Bedrock.Name) {
		c := quirkCase(q)
		switch q.Name {
		case "bedrock_exception_after_call":
			c.Expect, c.ToolTurnOnly, c.Delivered = ExpectBroken, true, DeliveredFirst
		case "bedrock_bad_crc":
			c.Expect, c.ToolTurnOnly, c.Delivered = ExpectBroken, true, DeliveredNone
		}
		cases = append(cases, c)
	}
	cases = append(cases,
		Case{ID: "bedrock_bytes", Tier: TierQuirk, Source: "AWS event stream framing", Rechunk: rechunk.Cutter{Mode: rechunk.Bytes},
			Doc: "the clean stream written a byte at a time: every message, prelude and CRC split across writes"},
		Case{ID: "bedrock_coalesced", Tier: TierQuirk, Source: "AWS event stream framing", Coalesce: true,
			Doc: "the clean stream's messages all in one write, several to a read"},
	)
	return append(cases, faultCases("bedrock_")...)
}
