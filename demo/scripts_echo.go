package demo

import (
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// The names of the echo scripts: replies that carry something the next
// request must send back, which the scripted gateway checks.
const (
	ScriptThoughtSignature = "thought_signature"
	ScriptReasoningEcho    = "reasoning_echo"
)

// The thought signatures the thought_signature script sends: opaque base64
// as Gemini's are, made up for the script.
const (
	signatureGlob = "CiwBjz1rX2FnZW50dmNyL3NjcmlwdGVkL3NpZ25hdHVyZS9nbG9iLzAwMQ=="
	signatureRead = "CiwBjz1rX2FnZW50dmNyL3NjcmlwdGVkL3NpZ25hdHVyZS9yZWFkLzAwMg=="
)

// EchoScripts returns the scripts whose replies must be echoed, in one
// locale:
//
//   - thought_signature plays Gemini's OpenAI-compatible endpoint: the first
//     of two parallel calls carries a thought signature (Gemini signs the
//     first call of a step), then a read_file call with its own signature,
//     then the conclusion.
//   - reasoning_echo plays DeepSeek's thinking mode: every reply begins with
//     reasoning_content, and the two tool-call turns' reasoning must come
//     back in every later request; the final answer's reasoning need not.
//
// They are played live against the gateway by the scenarios; no base
// cassette is recorded from them.
func EchoScripts(lang tools.Lang) []gateway.Script {
	t := scriptTexts[tools.ZH]
	e := echoTexts[tools.ZH]
	if lang == tools.EN {
		t, e = scriptTexts[tools.EN], echoTexts[tools.EN]
	}
	glob := gateway.ScriptCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}
	grep := gateway.ScriptCall{Name: "grep", Arguments: `{"pattern":"divide","glob":"**/*.js"}`}
	read := gateway.ScriptCall{Name: "read_file", Arguments: `{"path":"src/calc.js"}`}
	signedGlob, signedRead := glob, read
	signedGlob.ThoughtSignature, signedRead.ThoughtSignature = signatureGlob, signatureRead
	return []gateway.Script{
		{Name: ScriptThoughtSignature, Turns: []gateway.ScriptTurn{
			{Text: t.both, Calls: []gateway.ScriptCall{signedGlob, grep}},
			{Text: t.readCalc, Calls: []gateway.ScriptCall{signedRead}},
			{Text: t.conclusion},
		}},
		{Name: ScriptReasoningEcho, Turns: []gateway.ScriptTurn{
			{Reasoning: e.thinkFiles, Text: t.findTests, Calls: []gateway.ScriptCall{glob}},
			{Reasoning: e.thinkRead, Calls: []gateway.ScriptCall{read}},
			{Reasoning: e.thinkDone, Text: t.conclusion},
		}},
	}
}

// echoText holds the reasoning the reasoning_echo script streams.
type echoText struct {
	thinkFiles, thinkRead, thinkDone string
}

var echoTexts = map[tools.Lang]echoText{
	tools.ZH: {
		thinkFiles: "用户问测试为什么红。先列出 JS 文件，找到测试和被测代码。",
		thinkRead:  "测试在 test/calc.test.js，期望 divide(1, 0) 抛错。读 src/calc.js 看 divide 的实现。",
		thinkDone:  "divide 直接 return a / b，没有检查 b 为 0。可以下结论了。",
	},
	tools.EN: {
		thinkFiles: "The user asks why the tests are red. List the JS files first to find the test and the code.",
		thinkRead:  "The test in test/calc.test.js expects divide(1, 0) to throw. Read src/calc.js to see divide.",
		thinkDone:  "divide just returns a / b with no check for b being 0. Ready to conclude.",
	},
}
