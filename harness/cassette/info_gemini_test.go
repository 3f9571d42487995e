package cassette

import (
	"path/filepath"
	"testing"

	"github.com/agentvcr/agentvcr/wire/gemini"
)

// A Gemini recording names its model in the path and its prompt in
// "contents"; its base URL is the root, without the path and without the
// alt=sse the client adds again.
func TestReadRecordingGemini(t *testing.T) {
	rec, err := ReadRecording(filepath.Join("..", "..", "cassettes", "gemini", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := Recording{API: gemini.Format, BaseURL: "http://scripted-gateway.agentvcr.test", Model: "demo", Prompt: "帮我看看这个仓库，测试为什么红", Interactions: 4}
	if rec != want {
		t.Errorf("ReadRecording = %+v, want %+v", rec, want)
	}
}

func TestWithoutQuery(t *testing.T) {
	tests := []struct{ query, added, want string }{
		{"alt=sse", "alt=sse", ""},
		{"key=REDACTED&alt=sse", "alt=sse", "key=REDACTED"},
		{"alt=sse&key=REDACTED", "alt=sse", "key=REDACTED"},
		{"alt=sse2&x=1", "alt=sse", "alt=sse2&x=1"},
		{"api-version=1", "", "api-version=1"},
		{"api-version=1", "alt=sse", "api-version=1"},
	}
	for _, tt := range tests {
		if got := withoutQuery(tt.query, tt.added); got != tt.want {
			t.Errorf("withoutQuery(%q, %q) = %q, want %q", tt.query, tt.added, got, tt.want)
		}
	}
}
