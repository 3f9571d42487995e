package conform

import (
	"encoding/json"
	"regexp"
	"strings"
)

// The refusal rule, the same for every format: after a stream cut inside a
// call (a cut, an error event, the output limit), an agent may send that
// call back marked as unusable and answer it with an error instead of
// running it. Claude Code keeps the raw input under __unparsedToolInput
// with an is_error result saying it could not be parsed; opencode routes
// it to a tool of its own named "invalid" with the parse error; Qwen Code,
// Cline and Copilot CLI clear the arguments and say in the result that
// they were cut or not valid JSON. Nothing ran, the model is told, and the
// history is one the API takes: a deliberate recovery, a WARNING.
//
// conform takes a call the stream did not deliver whole as refused when
// both hold:
//
//  1. it was not run: it is answered, and its result is not the one the
//     clean run got for the whole call (results.go);
//  2. the history tells the model why: the call's arguments (the text as
//     sent, or a string inside them) keep a part of the partial arguments
//     the stream delivered, a non-empty beginning of the whole call's
//     arguments that is not all of them; or its arguments or its result
//     say in words that the arguments were cut or could not be parsed
//     (refusalWordsRe, matched without regard to case).
//
// The second part is read from text: a result worded otherwise ("the input
// was damaged") is not recognised, and the case fails; a call silently
// reset to {} and answered by the tool's own validation error ("required
// property missing") fails too, since the model is misled about what it
// sent. A call that was run, or sent back as if whole, fails.

// refusalWordsRe is what a result or an argument says when it tells the
// model that the arguments were cut or are not JSON.
var refusalWordsRe = regexp.MustCompile(`(?i)\b(cut off|was cut|were cut|truncat\w*|incomplete|interrupted|unterminated|unexpected end|` +
	`(could ?not|couldn't|cannot|can't|failed to|unable to) (be )?pars\w*|pars(e|ing) (error|fail\w*)|` +
	`(not|isn't|is not) valid json|invalid json|malformed|unparsed\w*)`)

// refused reports whether call, sent in place of cut (a call the stream
// did not deliver whole), is a refusal by the rule above: answered with
// result (answered false: no tool message), not the clean run's result.
func refused(call, cut Call, result string, answered bool, ref *cleanRun) bool {
	if !answered {
		return false
	}
	if ref != nil {
		if want, ok := ref.results[callKey(cut)]; ok && ref.norm.text(result, nil) == want {
			return false // it ran as if whole
		}
	}
	if refusalWordsRe.MatchString(result) || refusalWordsRe.MatchString(call.Arguments) {
		return true
	}
	return keepsPartial(call.Arguments, cut.Arguments)
}

// keepsPartial reports whether args, or a string inside them, is a
// non-empty proper beginning of whole: the partial arguments, kept raw.
func keepsPartial(args, whole string) bool {
	isPart := func(s string) bool {
		return s != "" && len(s) < len(whole) && strings.HasPrefix(whole, s)
	}
	if isPart(args) {
		return true
	}
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			return isPart(v)
		case map[string]any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
