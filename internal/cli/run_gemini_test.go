package cli

import (
	"testing"

	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/google/go-cmp/cmp"
)

// Every base conversation recorded in Gemini's format (cassettes/gemini/)
// replays to the very transcript of its chat-completions twin, in both
// locales: the same cards from another wire.
func TestRunGeminiCassettesMatchTheirChatTwins(t *testing.T) {
	for _, lang := range []tools.Lang{tools.ZH, tools.EN} {
		for _, s := range demo.Scripts(lang) {
			t.Run(string(lang)+"/"+s.Name, func(t *testing.T) {
				chatCode, chatOut, chatErr := Capture(Env{Dir: t.TempDir()}, "run", "-cassette", s.Name, "-lang", string(lang))
				code, out, stderr := Capture(Env{Dir: t.TempDir()}, "run", "-api", "gemini", "-cassette", "gemini/"+s.Name, "-lang", string(lang))
				if code != chatCode || stderr != chatErr {
					t.Errorf("exit %d, stderr %q; the chat twin: exit %d, stderr %q", code, stderr, chatCode, chatErr)
				}
				if out == "" {
					t.Fatal("no transcript")
				}
				if diff := cmp.Diff(chatOut, out); diff != "" {
					t.Errorf("transcript (-chat +gemini):\n%s", diff)
				}
			})
		}
	}
}
