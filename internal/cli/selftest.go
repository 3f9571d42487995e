package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/demo"
	"github.com/agentvcr/agentvcr/harness/gateway"
	"github.com/agentvcr/agentvcr/harness/quirk"
	"github.com/agentvcr/agentvcr/tools"
	"github.com/agentvcr/agentvcr/wire/chat"
)

// The lesson's reproducible numbers, which the self-test checks.
var (
	demoCalls = []string{"glob", "grep", "read_file"}
	demoChars = []int{50, 361, 248}
)

const (
	truncatedChars = 8054  // a 20,000-character result, or the 38k file, after truncation
	unknownToolLen = 45    // runes of the zh unknown-tool text for edit_file
	bigResultChars = 20000 // the made-up long result
)

// A check is one of the self-test's seven: it returns what it saw, or an
// error saying what differed.
type check struct {
	name string
	run  func(ctx context.Context, env Env, lang tools.Lang) (string, error)
}

// checks are the lesson's acceptance checks, in its order.
var checks = []check{
	{"demo order and sizes", checkDemo},
	{"interleaved calls from index 1", checkInterleaved},
	{"truncation", checkTruncate},
	{"bad arguments", checkBadArgs},
	{"unknown tool", checkUnknownTool},
	{"path escape", checkEscape},
	{"38k file read", checkGenerated},
}

// cmdSelftest runs `agentvcr selftest`: every check offline, one line each,
// then "N/7 passed". Exit 0 only when all pass.
func cmdSelftest(env Env, args []string) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(env.Stderr, "usage: agentvcr selftest")
		return 2
	}
	ctx := context.Background()
	passed := 0
	for i, c := range checks {
		// The lesson's numbers are those of the zh locale.
		saw, err := c.run(ctx, env, tools.ZH)
		if err != nil {
			fmt.Fprintf(env.Stdout, "✘ %d/%d %s: %v\n", i+1, len(checks), c.name, err)
			continue
		}
		passed++
		fmt.Fprintf(env.Stdout, "✔ %d/%d %s: %s\n", i+1, len(checks), c.name, saw)
	}
	fmt.Fprintf(env.Stdout, "%d/%d passed\n", passed, len(checks))
	if passed != len(checks) {
		return 1
	}
	return 0
}

// replay runs an embedded cassette on the sandbox, as `agentvcr run
// -cassette NAME` does, and returns the events.
func replay(ctx context.Context, env Env, lang tools.Lang, name string) ([]agent.Event, error) {
	s, err := newSession(env, runFlags{cassette: name, rechunk: "random", seed: 1}, lang, "")
	if err != nil {
		return nil, err
	}
	var events []agent.Event
	err = s.run(ctx, func(e agent.Event) { events = append(events, e) })
	return events, err
}

// results are the result events of a run.
func results(events []agent.Event) []agent.Event {
	var out []agent.Event
	for _, e := range events {
		if e.Kind == agent.KindResult {
			out = append(out, e)
		}
	}
	return out
}

// concluded reports whether the run ended with the model's text.
func concluded(events []agent.Event) bool {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == agent.KindText {
			return true
		}
		if events[i].Kind == agent.KindResult {
			return false
		}
	}
	return false
}

func checkDemo(ctx context.Context, env Env, lang tools.Lang) (string, error) {
	events, err := replay(ctx, env, lang, demo.ScriptDemo)
	if err != nil {
		return "", err
	}
	var names []string
	var chars []int
	for _, e := range results(events) {
		names = append(names, e.Call.Name)
		chars = append(chars, e.Result.Chars)
	}
	saw := fmt.Sprintf("%s, fed back %s characters", strings.Join(names, " -> "), joinInts(chars, " / "))
	if !slices.Equal(names, demoCalls) || !slices.Equal(chars, demoChars) || !concluded(events) {
		return "", fmt.Errorf("want %s fed back %s and a conclusion, got %s", strings.Join(demoCalls, " -> "), joinInts(demoChars, " / "), saw)
	}
	return saw, nil
}

func checkInterleaved(ctx context.Context, env Env, lang tools.Lang) (string, error) {
	var parallel gateway.ScriptTurn
	for _, s := range demo.Scripts(lang) {
		if s.Name == demo.ScriptParallel {
			parallel = s.Turns[0]
		}
	}
	stream := []byte(strings.Join(gateway.Stream(chat.Format, "selftest", demo.ScriptParallel, 0, parallel), ""))
	for _, name := range []string{"index_plus_1", "interleaved_calls"} {
		q, _ := quirk.ByName(name)
		var err error
		if stream, err = q.Apply(stream, 1); err != nil {
			return "", err
		}
	}
	turn, err := chat.Merge(strings.NewReader(string(stream)))
	if err != nil {
		return "", err
	}
	var got []string
	for _, c := range turn.ToolCalls {
		got = append(got, c.Function.Name+c.Function.Arguments)
	}
	var want []string
	for _, c := range parallel.Calls {
		want = append(want, c.Name+c.Arguments)
	}
	if !slices.Equal(got, want) {
		return "", fmt.Errorf("want calls %q, got %q", want, got)
	}
	return fmt.Sprintf("%d calls merged: %s", len(got), strings.Join(got, ", ")), nil
}

func checkTruncate(_ context.Context, _ Env, lang tools.Lang) (string, error) {
	out, meta := tools.Truncate(strings.Repeat("字", bigResultChars), lang)
	n := utf8.RuneCountInString(out)
	if n != truncatedChars || !meta.Truncated || meta.OriginalChars != bigResultChars || !strings.Contains(out, "12000") {
		return "", fmt.Errorf("want %d runes noting 12000 removed, got %d runes (truncated=%t)", truncatedChars, n, meta.Truncated)
	}
	return fmt.Sprintf("%d -> %d characters, the note says 12000 removed", bigResultChars, n), nil
}

func checkBadArgs(ctx context.Context, env Env, lang tools.Lang) (string, error) {
	events, err := replay(ctx, env, lang, demo.ScriptBadArgs)
	if err != nil {
		return "", fmt.Errorf("the loop did not complete: %w", err)
	}
	rs := results(events)
	if len(rs) == 0 || !rs[0].Result.IsError || !concluded(events) {
		return "", errors.New("want a failure result for the bad arguments, then a conclusion")
	}
	return fmt.Sprintf("%s failed and fed back %d characters; %d more calls and a conclusion, no error", rs[0].Call.Name, rs[0].Result.Chars, len(rs)-1), nil
}

func checkUnknownTool(ctx context.Context, _ Env, lang tools.Lang) (string, error) {
	ws, err := tools.NewWorkspace(os.TempDir())
	if err != nil {
		return "", err
	}
	res := tools.Default(ws, lang).Execute(ctx, tools.Call{ID: "call_selftest", Name: "edit_file", Arguments: `{"path":"src/calc.js","old":"a / b"}`})
	if !res.IsError || res.Chars() != unknownToolLen {
		return "", fmt.Errorf("want a %d-character failure, got %d characters: %s", unknownToolLen, res.Chars(), res.Content)
	}
	return fmt.Sprintf("%d characters: %s", res.Chars(), res.Content), nil
}

func checkEscape(ctx context.Context, _ Env, lang tools.Lang) (string, error) {
	dir, err := os.MkdirTemp("", "agentvcr-selftest-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "root")
	for p, content := range map[string]string{"root/a.txt": "inside\n", "root2/secret.txt": "outside\n"} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		return "", err
	}
	res := tools.Default(ws, lang).Execute(ctx, tools.Call{ID: "call_selftest", Name: "read_file", Arguments: `{"path":"../root2/secret.txt"}`})
	if !res.IsError || strings.Contains(res.Content, "outside\n") {
		return "", fmt.Errorf("want a failure, got: %s", res.Content)
	}
	return res.Content, nil
}

func checkGenerated(ctx context.Context, env Env, lang tools.Lang) (string, error) {
	events, err := replay(ctx, env, lang, demo.ScriptReadGenerated)
	if err != nil {
		return "", err
	}
	rs := results(events)
	if len(rs) != 1 || rs[0].Result.Chars != truncatedChars || !rs[0].Result.Truncated {
		return "", fmt.Errorf("want one read_file result of %d characters, cut", truncatedChars)
	}
	return fmt.Sprintf("%s: %d characters cut to %d", demo.GeneratedFile, rs[0].Result.OriginalChars, rs[0].Result.Chars), nil
}

// joinInts joins numbers with sep.
func joinInts(ns []int, sep string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, sep)
}
