package gemini

import "github.com/agentvcr/agentvcr/agent"

// Response renders t as the JSON body of a non-streamed generateContent
// answer: the one GenerateContentResponse that Write's events add up to,
// the text whole and then the calls in one candidate, with the same ids,
// finish reason and usage.
func Response(model, conversation string, index int, t *agent.Turn) []byte {
	var parts []part
	if t.Text != "" {
		parts = append(parts, textPart(t.Text))
	}
	parts = append(parts, callParts(conversation, index, t)...)
	if len(parts) == 0 {
		parts = []part{textPart("")}
	}
	r := streamResponse{Candidates: []streamCandidate{{Content: streamContent{Parts: parts, Role: "model"}, FinishReason: finishOf(t)}},
		UsageMetadata: usageOf(index, t), ModelVersion: model, ResponseID: responseID(conversation, index)}
	b, err := marshal(r)
	if err != nil {
		panic(err) // plain structs of strings, ints and valid JSON always marshal
	}
	return b
}
