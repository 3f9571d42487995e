package conform

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What the metamorphic rules forgive between two runs, and nothing more.
func TestNormaliser(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	n := newNormaliser(link)
	tests := []struct{ reason, in, want string }{
		{"the folder, as given and resolved", link + "/src/a.js and " + dir + "/b.js", "<folder>/src/a.js and <folder>/b.js"},
		{"another path under the temporary folder loses its per-run element", os.TempDir() + "/agent-1234/session.json", "<tmp>/session.json"},
		{"date-times and short durations", "at 2026-12-04T22:24:36.123Z took 12ms and 1.25s", "at <time> took <duration> and <duration>"},
		{"a whole number of seconds is not a duration (it may be data)", "3s", "3s"},
		{"the request's call ids", "call_abcd answered", "<id> answered"},
		{"non-ASCII escapes decoded, ASCII ones kept", `\u6570\u636e \u0022`, `数据 \u0022`},
		{"CRLF and trailing spaces", "a  \r\nb", "a\nb"},
		{"anything else stays", "src/calc.js:9:function divide(a, b) {", "src/calc.js:9:function divide(a, b) {"},
	}
	for _, tt := range tests {
		if got := n.text(tt.in, []string{"call_abcd", "1"}); got != tt.want {
			t.Errorf("%s: %q -> %q, want %q", tt.reason, tt.in, got, tt.want)
		}
	}
}

// The printed-answer rule on outputs side by side with the clean run's.
func TestCheckSameAnswer(t *testing.T) {
	clean := "Let me look at two things at once.\nBoth calls answered: done.\n"
	ref := &cleanRun{id: "clean", norm: newNormaliser(t.TempDir()), stdout: clean}
	tests := []struct {
		reason, stdout string
		status         Status
		details        string
	}{
		{"the same output", clean, "", ""},
		{"lines of its own added (thinking shown)", "thinking: hm\n" + clean + "took 12ms\n", "", ""},
		{"the preamble printed twice", "Let me look at two things at once.\n" + clean, Failure,
			`the agent printed the turn's text ("Let me look at two things at once.") 2 times, where the clean run prints it once`},
		{"the conclusion lost", "Let me look at two things at once.\n", Failure,
			`the agent exited 0 without printing the conclusion "Both calls answered: done.", which it prints in clean: its answer was lost`},
		{"parts as JSON", `[{"type":"text","text":"Let me look"}]` + "\nBoth calls answered: done.\n", Failure,
			`the agent printed the text parts as JSON ([{"type":"text"…), not their text`},
		{"a line changed otherwise", "Let me look at two things.\nBoth calls answered: done.\n", Warning,
			"it printed other than on the clean stream (the difference is below)"},
	}
	for _, tt := range tests {
		v, _ := checkSameAnswer(outcome{stdout: []byte(tt.stdout), clean: ref})
		if v.status != tt.status || v.details != tt.details {
			t.Errorf("%s: %s %q, want %s %q", tt.reason, v.status, v.details, tt.status, tt.details)
		}
	}
	if v, ok := checkSameAnswer(outcome{stdout: []byte("anything")}); !ok || v.status != "" {
		t.Errorf("without a clean run: %s %q, want no verdict", v.status, v.details)
	}
}

// What counts as a refusal of a cut call: not run, and the history says why.
func TestRefused(t *testing.T) {
	cut := Call{Name: "grep", Arguments: `{"pattern":"probe"}`}
	ref := &cleanRun{norm: newNormaliser(t.TempDir()), results: map[string]string{callKey(cut): "no match for probe"}}
	tests := []struct {
		reason   string
		call     Call
		result   string
		answered bool
		want     bool
	}{
		{"the raw partial kept (Claude Code)", Call{Name: "grep", Arguments: `{"__unparsedToolInput":{"raw":"{\"patt","len":6}}`}, "<tool_use_error>Error</tool_use_error>", true, true},
		{"routed to a tool of its own with the parse error (opencode)", Call{Name: "invalid", Arguments: `{"tool":"grep","error":"JSON parsing failed"}`}, "The arguments provided to the tool are invalid", true, true},
		{"arguments cleared, the result says they were cut (Qwen Code)", Call{Name: "grep", Arguments: `{}`}, "Tool call arguments were truncated by the output limit; not run.", true, true},
		{"arguments cleared, the result says not valid JSON", Call{Name: "grep", Arguments: `{}`}, "The arguments are not valid JSON.", true, true},
		{"reset to {} and answered by the tool's own validation", Call{Name: "grep", Arguments: `{}`}, "required property 'pattern' missing", true, false},
		{"not answered", Call{Name: "grep", Arguments: `{"patt`}, "", false, false},
		{"answered with the whole call's result: it ran as if whole", Call{Name: "grep", Arguments: `{"patt`}, "no match for probe", true, false},
		{"a string that is the whole arguments is not a part", Call{Name: "grep", Arguments: `{"raw":"{\"pattern\":\"probe\"}"}`}, "Error", true, false},
	}
	for _, tt := range tests {
		if got := refused(tt.call, cut, tt.result, tt.answered, ref); got != tt.want {
			t.Errorf("%s: refused %v, want %v", tt.reason, got, tt.want)
		}
	}
}

// The order rule: any order of the same calls is judged as sent.
func TestInSentOrder(t *testing.T) {
	a := Call{ID: "1", Name: "glob", Arguments: `{"pattern":"*"}`}
	b := Call{ID: "2", Name: "grep", Arguments: `{ "pattern": "x" }`}
	bad := Call{ID: "2", Name: "grep", Arguments: `{"pattern":"x"`}
	if got, skip := inSentOrder([]Call{a, b}, []Call{b, a}, true, -1); !cmp.Equal(got, []Call{b, a}) || skip != -1 {
		t.Errorf("reversed: %v %d", got, skip)
	}
	if got, skip := inSentOrder([]Call{bad, a}, []Call{a, {ID: "2", Name: "grep", Arguments: "{}"}}, true, 0); !cmp.Equal(got, []Call{a, bad}) || skip != 1 {
		t.Errorf("the uncompared call moves along: %v %d", got, skip)
	}
	other := Call{ID: "3", Name: "grep", Arguments: `{"pattern":"y"}`}
	if got, _ := inSentOrder([]Call{a, b}, []Call{other, a}, true, -1); !cmp.Equal(got, []Call{a, b}) {
		t.Errorf("other calls: want unchanged, got %v", got)
	}
}

// A bad call sent back under another name is refused only when its
// arguments or its result say the arguments could not be parsed.
func TestBadCallRefusal(t *testing.T) {
	want := []Call{{ID: "call_1", Name: "glob", Arguments: `{"pattern":`}, {ID: "call_2", Name: "grep", Arguments: `{"pattern":"x"}`}}
	req := func(name, args, result string) Request {
		return Request{Messages: []Message{
			{Role: "user", Text: "look"},
			{Role: "assistant", Calls: []Call{{ID: "call_1", Name: name, Arguments: args}, want[1]}},
			{Role: "tool", CallID: "call_1", Text: result},
			{Role: "tool", CallID: "call_2", Text: "ok"},
		}}
	}
	tests := []struct {
		reason, name, args, result string
		wantSaid                   string
	}{
		{"the parse error in the arguments", "invalid", `{"tool":"glob","error":"JSON parsing failed"}`, "The arguments provided to the tool are invalid", "arguments say"},
		{"the parse error in the result", "invalid", `{"tool":"glob"}`, "could not parse the arguments", "result says"},
		{"renamed with no word of why", "invalid", `{"tool":"glob"}`, "the input was damaged", ""},
		{"renamed to another tool that ran", "grep", `{"pattern":"x"}`, "ok", ""},
		{"its own name: no refusal, the calls are compared as they are", "glob", `{"pattern":`, "JSON parsing failed", ""},
	}
	for _, tt := range tests {
		_, said, ok := badCallRefusal(want, req(tt.name, tt.args, tt.result), 1)
		if said != tt.wantSaid || ok != (tt.wantSaid != "") {
			t.Errorf("%s: refused %v (%q), want %q", tt.reason, ok, said, tt.wantSaid)
		}
	}
}
