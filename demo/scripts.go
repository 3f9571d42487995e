package demo

import (
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/tools"
)

// Prompt is the question the demo asks about the sandbox repository.
func Prompt(lang tools.Lang) string {
	if lang == tools.EN {
		return "Look at this repository: why are the tests red?"
	}
	return "帮我看看这个仓库，测试为什么红"
}

// The names of the base scripts, which are also the names of the base
// cassettes recorded from them (cassettes/<name>.yaml, <name>.en.yaml).
const (
	ScriptDemo          = "demo"
	ScriptBadArgs       = "demo_bad_args"
	ScriptUnknownTool   = "demo_unknown_tool"
	ScriptParallel      = "parallel"
	ScriptReadGenerated = "read_generated"
)

// Scripts returns the base scripts in one locale: the demo conversation
// (glob -> grep -> read_file -> conclusion), its bad-arguments and
// unknown-tool variants, a turn with two parallel calls, and a read of the
// generated ~38,000-character file.
func Scripts(lang tools.Lang) []gateway.Script {
	t := scriptTexts[tools.ZH]
	if lang == tools.EN {
		t = scriptTexts[tools.EN]
	}
	glob := gateway.ScriptCall{Name: "glob", Arguments: `{"pattern":"**/*.js"}`}
	grep := gateway.ScriptCall{Name: "grep", Arguments: `{"pattern":"divide","glob":"**/*.js"}`}
	read := gateway.ScriptCall{Name: "read_file", Arguments: `{"path":"src/calc.js"}`}
	conclusion := gateway.ScriptTurn{Text: t.conclusion}
	return []gateway.Script{
		{Name: ScriptDemo, Turns: []gateway.ScriptTurn{
			{Text: t.findTests, Calls: []gateway.ScriptCall{glob}},
			{Text: t.findDivide, Calls: []gateway.ScriptCall{grep}},
			{Text: t.readCalc, Calls: []gateway.ScriptCall{read}},
			conclusion,
		}},
		{Name: ScriptBadArgs, Turns: []gateway.ScriptTurn{
			// The closing brace is missing: the merged arguments are not JSON.
			{Text: t.findTests, Calls: []gateway.ScriptCall{{Name: "glob", Arguments: `{"pattern":"**/*.js"`}}},
			{Text: t.retry, Calls: []gateway.ScriptCall{glob}},
			{Text: t.findDivide, Calls: []gateway.ScriptCall{grep}},
			{Text: t.readCalc, Calls: []gateway.ScriptCall{read}},
			conclusion,
		}},
		{Name: ScriptUnknownTool, Turns: []gateway.ScriptTurn{
			{Text: t.findTests, Calls: []gateway.ScriptCall{glob}},
			{Text: t.findDivide, Calls: []gateway.ScriptCall{grep}},
			{Calls: []gateway.ScriptCall{{Name: "edit_file", Arguments: `{"path":"src/calc.js","old":"a / b"}`}}},
			{Text: t.noEditTool, Calls: []gateway.ScriptCall{read}},
			conclusion,
		}},
		{Name: ScriptParallel, Turns: []gateway.ScriptTurn{
			{Text: t.both, Calls: []gateway.ScriptCall{glob, grep}},
			{Calls: []gateway.ScriptCall{read}},
			conclusion,
		}},
		{Name: ScriptReadGenerated, Turns: []gateway.ScriptTurn{
			{Calls: []gateway.ScriptCall{{Name: "read_file", Arguments: `{"path":"` + GeneratedFile + `"}`}}},
			{Text: t.generated},
		}},
	}
}

// scriptText holds what the scripted model says, per locale.
type scriptText struct {
	findTests, findDivide, readCalc, retry, noEditTool, both, conclusion, generated string
}

var scriptTexts = map[tools.Lang]scriptText{
	tools.ZH: {
		findTests:  "先看看仓库里有哪些 JS 文件。",
		findDivide: "测试在 test/calc.test.js。搜一下 divide 在哪里定义、在哪里被测。",
		readCalc:   "divide 定义在 src/calc.js，读一下它的实现。",
		retry:      "刚才的参数不是合法 JSON，少了右括号。重新调用一次。",
		noEditTool: "原来今天还没有编辑工具，只有三个只读的。那我先把代码读明白。",
		both:       "同时列出 JS 文件、搜索 divide。",
		conclusion: "测试红的原因：test/calc.test.js 第 12 行期望 divide(1, 0) 抛出 “division by zero”，" +
			"但 src/calc.js 第 10 行直接 return a / b;，除以 0 得到 Infinity，不会抛错。" +
			"修法：在第 10 行前加一行 if (b === 0) throw new Error('division by zero');",
		generated: "这是一个生成的常量表，结果已按 8000 字符截断；需要中间部分可以带 offset 再读。",
	},
	tools.EN: {
		findTests:  "First, let me see which JS files the repository has.",
		findDivide: "The tests are in test/calc.test.js. Let me search where divide is defined and tested.",
		readCalc:   "divide is defined in src/calc.js; let me read it.",
		retry:      "Those arguments were not valid JSON (the closing brace was missing). Calling again.",
		noEditTool: "There is no edit tool yet, only the three read-only ones. Let me read the code first.",
		both:       "Listing the JS files and searching for divide at the same time.",
		conclusion: "Why the tests are red: test/calc.test.js line 12 expects divide(1, 0) to throw \"division by zero\", " +
			"but src/calc.js line 10 just does return a / b;, and dividing by 0 gives Infinity instead of throwing. " +
			"Fix: add if (b === 0) throw new Error('division by zero'); before line 10.",
		generated: "This is a generated table of constants; the result was cut to 8000 characters. Read again with an offset for the middle.",
	},
}
