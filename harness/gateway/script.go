package gateway

import (
	"fmt"
	"regexp"
	"strings"
)

// A Script is the model's side of one conversation, played by the scripted
// gateway: reply N answers the request that carries N-1 assistant messages.
// The gateway is stateless; the conversation itself says where it stands.
type Script struct {
	// Name is what a request puts in "model" to pick this script.
	Name string `yaml:"name"`
	// Turns are the model's turns, in order.
	Turns []ScriptTurn `yaml:"turns"`
	// Quirk, when set (a script file's), is the quirk the script is served
	// under on its plain URL (/s/NAME/v1), as serve -quirk serves one.
	Quirk string `yaml:"quirk,omitempty"`
	// Format, when set (a script file's), is the one wire format the script
	// is served in (a format's -api name); every format when empty.
	Format string `yaml:"format,omitempty"`
}

// A ScriptTurn is one model turn: optional reasoning and text, then tool calls.
// Its yaml names are a script file's (ReadScriptFile).
type ScriptTurn struct {
	// UserContains and UserMatches, when set, make the turn answer a
	// request whose last user message contains the text, or matches the
	// regular expression (RE2), wherever it stands in the conversation
	// (Script.Pick); a turn with neither answers by its place among them.
	UserContains string `yaml:"user_contains,omitempty"`
	UserMatches  string `yaml:"user_matches,omitempty"`
	// Reasoning, when not empty, is streamed first as
	// delta.reasoning_content, as DeepSeek's thinking mode does. On a reply
	// with calls the gateway then wants it back, exactly, on that assistant
	// message of every later request (reasoning_content), and answers 400
	// like DeepSeek when it is missing.
	Reasoning string `yaml:"reasoning,omitempty"`
	// Text is the assistant's content, streamed before the calls.
	Text string `yaml:"text,omitempty"`
	// Calls are the tool calls of this turn, streamed in the clean shape
	// (index from 0, id and name in the first piece, arguments in pieces).
	Calls []ScriptCall `yaml:"calls,omitempty"`
	// FinishReason, when set, is sent as the turn's finish reason; else the
	// format's own for a turn with calls or without (chat completions:
	// "tool_calls" or "stop").
	FinishReason string `yaml:"finish_reason,omitempty"`
	// Status, when not zero, answers with this HTTP status and an error
	// body in the request's format instead of a stream (429, 500, ...).
	Status int `yaml:"status,omitempty"`

	re   *regexp.Regexp // UserMatches, compiled by ReadScriptFile
	line int            // where a script file has the turn, for its errors
}

// A ScriptCall is one tool call. Arguments is sent as written, so a script
// can send arguments that are not valid JSON.
type ScriptCall struct {
	Name      string `yaml:"name"`
	Arguments string `yaml:"arguments"`
	// ThoughtSignature, when not empty, is sent in the call's first piece as
	// extra_content.google.thought_signature, as Gemini's OpenAI-compatible
	// endpoint does. The gateway then wants the call's extra_content back,
	// exactly, in every later request, and answers 400 like Gemini when it
	// is missing.
	ThoughtSignature string `yaml:"thought_signature,omitempty"`
}

// ErrorScripts answer their first request with an HTTP error, the way a
// gateway refuses a request: http_429 (rate limited), http_500 and http_503.
// They test what a live run shows; no cassette is recorded from them.
func ErrorScripts() []Script {
	var out []Script
	for _, status := range []int{429, 500, 503} {
		out = append(out, Script{Name: fmt.Sprintf("http_%d", status), Turns: []ScriptTurn{{Status: status}}})
	}
	return out
}

// Pick returns the turn of s that answers a request: the first turn, in
// order, whose UserContains or UserMatches the last user message meets;
// else the turn-th (0-based) of the turns with neither. ok is false when
// none answers.
func (s Script) Pick(turn int, lastUser string) (t ScriptTurn, index int, ok bool) {
	plain := 0
	for i, st := range s.Turns {
		switch {
		case st.UserContains != "" || st.UserMatches != "":
			if st.UserContains != "" && !strings.Contains(lastUser, st.UserContains) {
				continue
			}
			if st.UserMatches != "" {
				re := st.re
				if re == nil {
					var err error
					if re, err = regexp.Compile(st.UserMatches); err != nil {
						continue
					}
				}
				if !re.MatchString(lastUser) {
					continue
				}
			}
			return st, i, true
		case plain == turn:
			return st, i, true
		default:
			plain++
		}
	}
	return ScriptTurn{}, 0, false
}
