package gemini

import (
	"net/http"
	"testing"
)

// Both addressings of the API, Google AI's and Vertex AI's (regional,
// global, express mode; v1 and v1beta1), under any prefix, streamed and
// whole; and the shapes that are neither.
func TestPathModelReadsBothAddressings(t *testing.T) {
	const vertex = "/v1/projects/my-proj/locations/us-central1/publishers/google/models/"
	tests := []struct {
		path    string
		model   string
		stream  bool
		serves  bool
		apiPath string
	}{
		{"/v1beta/models/gemini-2.5-flash:streamGenerateContent", "gemini-2.5-flash", true, true, "/v1beta/models/gemini-2.5-flash:streamGenerateContent"},
		{"/gw/v1beta/models/m:generateContent", "m", false, true, "/v1beta/models/m:generateContent"},
		{vertex + "gemini-2.5-pro:streamGenerateContent", "gemini-2.5-pro", true, true, vertex + "gemini-2.5-pro:streamGenerateContent"},
		{vertex + "gemini-2.5-pro:generateContent", "gemini-2.5-pro", false, true, vertex + "gemini-2.5-pro:generateContent"},
		{"/v1beta1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:streamGenerateContent", "gemini-3-pro-preview", true, true,
			"/v1beta1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:streamGenerateContent"},
		{"/s/gemini_clean/v1beta1/projects/p/locations/l/publishers/google/models/m:streamGenerateContent", "m", true, true,
			"/v1beta1/projects/p/locations/l/publishers/google/models/m:streamGenerateContent"},
		{"/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent", "gemini-2.5-flash", true, true, "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent"},
		{"/s/x/v1beta1/publishers/google/models/m:generateContent", "m", false, true, "/v1beta1/publishers/google/models/m:generateContent"},

		// not Gemini's
		{"/v1beta/models/:streamGenerateContent", "", false, false, ""},
		{"/v1beta/models/a/b:generateContent", "", false, false, ""},
		{"/v1beta/models/m:countTokens", "", false, false, ""},
		{vertex + "m:countTokens", "", false, false, ""},
		{vertex + ":streamGenerateContent", "", false, false, ""},
		{vertex + "a/b:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/locations/l/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict", "", false, false, ""},
		{"/v1/projects/p/locations/l/publishers/anthropic/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/locations/l/endpoints/123:streamGenerateContent", "", false, false, ""},
		{"/v2/projects/p/locations/l/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/projects/p/locations/l/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects//locations/l/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/locations//publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/q/locations/l/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/projects/p/locations/l/x/publishers/google/models/m:streamGenerateContent", "", false, false, ""},
		{"/v1/chat/completions", "", false, false, ""},
	}
	for _, tt := range tests {
		model, stream := PathModel(tt.path)
		apiPath, ok := APIPath(tt.path)
		if model != tt.model || stream != tt.stream || Format.Serves(tt.path) != tt.serves || apiPath != tt.apiPath || ok != tt.serves {
			t.Errorf("%s: model %q stream %v serves %v api path %q %v; want %q %v %v %q", tt.path, model, stream, Format.Serves(tt.path), apiPath, ok,
				tt.model, tt.stream, tt.serves, tt.apiPath)
		}
	}
}

// A request in either addressing is served and matched on Google AI's path:
// a cassette recorded through Vertex AI replays to a Gemini API client and
// the other way round.
func TestServedPathOfAVertexRequest(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/v1/projects/p/locations/l/publishers/google/models/m:streamGenerateContent", "/v1beta/models/m:streamGenerateContent"},
		{"/s/x/v1beta1/projects/p/locations/global/publishers/google/models/m:generateContent", "/v1beta/models/m:generateContent"},
		{"/v1beta1/publishers/google/models/m:generateContent", "/v1beta/models/m:generateContent"},
	}
	for _, tt := range tests {
		if got := Format.ServedPath(tt.path, "m"); got != tt.want {
			t.Errorf("ServedPath(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

// The key a request carries: x-goog-api-key (Google AI, Vertex AI express
// mode), else a bearer token (Vertex AI with Application Default
// Credentials); the header wins when both come.
func TestKeyReadsTheHeaderOrTheBearerToken(t *testing.T) {
	tests := []struct {
		header http.Header
		want   string
	}{
		{http.Header{"X-Goog-Api-Key": {"AIzaKey"}}, "AIzaKey"},
		{http.Header{"Authorization": {"Bearer ya29.token"}}, "ya29.token"},
		{http.Header{"Authorization": {"bearer  ya29.token "}}, "ya29.token"},
		{http.Header{"X-Goog-Api-Key": {"AIzaKey"}, "Authorization": {"Bearer ya29.token"}}, "AIzaKey"},
		{http.Header{"Authorization": {"Basic dXNlcjpwdw=="}}, ""},
		{http.Header{"Authorization": {"ya29.token"}}, ""},
		{http.Header{}, ""},
	}
	for _, tt := range tests {
		if got := Key(tt.header); got != tt.want {
			t.Errorf("Key(%v) = %q, want %q", tt.header, got, tt.want)
		}
	}
}
