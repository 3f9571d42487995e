package conform

import "github.com/agentvcr/agentvcr/wire/messages"

// vertexFormat is Anthropic's Messages API on Vertex AI: the same requests
// (less "model", which the path says) and the same SSE events.
var vertexFormat = Format{Format: messages.Vertex, Read: readMessages, cases: VertexCases, cut: messagesCutPoint, renumber: renumberMessages, dir: "vertex-anthropic"}

// VertexCases returns the Vertex AI catalog in report order: the clean
// turn, every Messages case (the same events, the same SSE), then the
// faults.
func VertexCases() []Case {
	cases := []Case{{ID: "vertex_clean", Tier: TierQuirk, Source: "-", Doc: "the clean turn, as Vertex AI streams Anthropic's events"}}
	for _, c := range MessagesCases()[1:] {
		if c.Tier != TierFault {
			cases = append(cases, c)
		}
	}
	return append(cases, faultCases("vertex_")...)
}
