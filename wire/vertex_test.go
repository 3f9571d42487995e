package wire_test

import (
	"testing"

	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/gemini"
	"github.com/agentvcr/agentvcr/wire/messages"
)

// The registry finds Gemini at both of its addressings, Anthropic's models
// at Vertex AI's anthropic publisher, and no format at the other paths.
func TestForPathFindsGeminiOnVertex(t *testing.T) {
	for _, path := range []string{
		"/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent",
		"/v1beta1/projects/p/locations/global/publishers/google/models/gemini-2.5-pro:generateContent",
		"/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent",
		"/s/gemini_clean/v1beta1/projects/p/locations/l/publishers/google/models/m:streamGenerateContent",
	} {
		if got := wire.ForPath(path); got != gemini.Format {
			t.Errorf("ForPath(%s) = %v, want gemini", path, got)
		}
	}
	for _, path := range []string{
		"/v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict",
		"/s/vertex_clean/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-1@20250805:rawPredict",
	} {
		if got := wire.ForPath(path); got != messages.Vertex {
			t.Errorf("ForPath(%s) = %v, want vertex-anthropic", path, got)
		}
	}
	for _, path := range []string{
		"/v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4-5:countTokens",
		"/v1/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict",
		"/v1/projects/p/locations/l/publishers/google/models/m:countTokens",
	} {
		if got := wire.ForPath(path); got != nil {
			t.Errorf("ForPath(%s) = %s, want none", path, got.Name)
		}
	}
}
