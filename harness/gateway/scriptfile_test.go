package gateway

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var scriptFormats = []string{"chat", "messages", "responses", "gemini"}

func quirkNamed(name string) error {
	if name == "ids_dropped" {
		return nil
	}
	return fmt.Errorf("unknown quirk %q", name)
}

func TestReadScriptFile(t *testing.T) {
	data := []byte(`# the model's side
format: chat
quirk: ids_dropped
turns:
  - reasoning: first I look
    text: Let me look.
    calls:
      - name: glob
        arguments: '{"pattern":"**/*.js"'
        thought_signature: sig
  - user_contains: thanks
    text: You are welcome.
  - text: Done.
    finish_reason: stop
  - status: 429
`)
	s, err := ReadScriptFile("scripts/probe.yaml", data, scriptFormats, quirkNamed)
	if err != nil {
		t.Fatal(err)
	}
	want := Script{Name: "probe", Format: "chat", Quirk: "ids_dropped", Turns: []ScriptTurn{
		{Reasoning: "first I look", Text: "Let me look.", Calls: []ScriptCall{{Name: "glob", Arguments: `{"pattern":"**/*.js"`, ThoughtSignature: "sig"}}},
		{UserContains: "thanks", Text: "You are welcome."},
		{Text: "Done.", FinishReason: "stop"},
		{Status: 429},
	}}
	if diff := cmp.Diff(want, s, cmpopts.IgnoreUnexported(ScriptTurn{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestReadScriptFileErrors(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"empty", ``, "p.yaml:1: the file is empty: a script has turns"},
		{"not YAML", "turns:\n  - text: [open\n", "p.yaml:1: did not find expected ',' or ']'"},
		{"not a mapping", "# a comment\n- text: hi\n", "p.yaml:2: not a script: a script is a mapping of name, format, quirk and turns"},
		{"no turns", "turns: []\n", "p.yaml:1: no turns: a script has at least one"},
		{"unknown turn field", "turns:\n  - txt: hi\n", "p.yaml:2: unknown field txt: a turn has user_contains, user_matches, reasoning, text, calls, finish_reason, status"},
		{"unknown script field", "model: x\nturns:\n  - text: hi\n", "p.yaml:1: unknown field model: a script has name, format, quirk, turns"},
		{"unknown call field", "turns:\n  - calls:\n      - name: glob\n        args: '{}'\n", "p.yaml:4: unknown field args: a call has name, arguments, thought_signature"},
		{"a call and a status", "turns:\n  - text: hi\n  - status: 500\n    calls:\n      - name: glob\n        arguments: '{}'\n",
			"p.yaml:3: turn 2 has a status (500) and a stream (text, reasoning or calls): a turn answers with one"},
		{"not an error status", "turns:\n  - status: 204\n", "p.yaml:2: turn 1: status 204 is not an error status (400 to 599)"},
		{"a bad regular expression", "turns:\n  - text: a\n  - user_matches: 'a('\n    text: b\n",
			"p.yaml:3: turn 2: user_matches \"a(\" does not compile: error parsing regexp: missing closing ): `a(`"},
		{"an unknown format", "format: cobol\nturns:\n  - text: hi\n", "p.yaml:1: format \"cobol\": the formats are chat, messages, responses, gemini"},
		{"an unknown quirk", "turns:\n  - text: hi\nquirk: nope\n", "p.yaml:3: quirk: unknown quirk \"nope\""},
		{"a call with no name", "turns:\n  - calls:\n      - arguments: '{}'\n", "p.yaml:2: turn 1, call 1 has no name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadScriptFile("p.yaml", []byte(tt.data), scriptFormats, quirkNamed)
			if !errors.Is(err, ErrBadScript) || err.Error() != "bad script: "+tt.want {
				t.Errorf("got %v\nwant bad script: %s", err, tt.want)
			}
		})
	}
}

func TestScriptPick(t *testing.T) {
	s, err := ReadScriptFile("p.yaml", []byte(`turns:
  - text: one
  - user_matches: '(?i)^thanks'
    text: welcome
  - user_contains: again
    text: again
  - text: two
`), scriptFormats, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		turn int
		user string
		want string
		ok   bool
	}{
		{0, "hi", "one", true},
		{1, "hi", "two", true},
		{2, "hi", "", false},
		{0, "Thanks a lot", "one", true},     // the first turn comes first: first match wins, in order
		{1, "Thanks a lot", "welcome", true}, // before the second turn without a condition
		{1, "say it again", "again", true},
		{1, "thanks, again", "welcome", true},
		{5, "again", "again", true}, // wherever it stands
	} {
		got, _, ok := s.Pick(tt.turn, tt.user)
		if ok != tt.ok || got.Text != tt.want {
			t.Errorf("Pick(%d, %q) = %q, %v; want %q, %v", tt.turn, tt.user, got.Text, ok, tt.want, tt.ok)
		}
	}
}
