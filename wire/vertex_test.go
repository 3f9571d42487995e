package wire_test

import (
	"testing"

	"github.com/agentvcr/agentvcr/wire"
	"github.com/agentvcr/agentvcr/wire/gemini"
)

// The registry finds Gemini at both of its addressings, and no format at
// Vertex AI's paths of other publishers.
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
		"/v1/projects/p/locations/l/publishers/google/models/m:countTokens",
	} {
		if got := wire.ForPath(path); got != nil {
			t.Errorf("ForPath(%s) = %s, want none", path, got.Name)
		}
	}
}
