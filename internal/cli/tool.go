package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/agentvcr/agentvcr/tools"
)

const toolUsage = `usage: agentvcr tool [-C DIR] [-lang zh|en] [-json] NAME [ARGS_JSON]

Runs one tool through the entry the agent loop uses, truncation included, and
prints the exact text fed back to the model. ARGS_JSON defaults to {}; "-"
reads it from stdin. Exit 0 whenever a result was produced (failure results
included), 1 when the workspace cannot be opened, 2 on usage errors.

flags:
`

// toolJSON is the -json output line.
type toolJSON struct {
	OK            bool   `json:"ok"`
	Content       string `json:"content"`
	Chars         int    `json:"chars"`
	Truncated     bool   `json:"truncated"`
	OriginalChars int    `json:"original_chars"`
}

// cmdTool runs `agentvcr tool`.
func cmdTool(env Env, args []string) int {
	stdin, stdout, stderr := env.Stdin, env.Stdout, env.Stderr
	fs := flag.NewFlagSet("tool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, toolUsage)
		fs.PrintDefaults()
	}
	dir := fs.String("C", ".", "workspace `DIR` the tool reads")
	langFlag := fs.String("lang", env.Getenv("AGENTVCR_LANG"), "locale of the texts: zh or en (default $AGENTVCR_LANG, else zh)")
	asJSON := fs.Bool("json", false, "print one JSON line: ok, content, chars, truncated, original_chars")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	lang, err := tools.ParseLang(*langFlag)
	if err != nil {
		fmt.Fprintf(stderr, "agentvcr tool: %v\n", err)
		return 2
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return 2
	}
	call := tools.Call{ID: "call_cli", Name: fs.Arg(0), Arguments: "{}"}
	if fs.NArg() == 2 {
		call.Arguments = fs.Arg(1)
	}
	if call.Arguments == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "agentvcr tool: reading arguments: %v\n", err)
			return 1
		}
		call.Arguments = string(b)
	}
	ws, err := tools.NewWorkspace(env.path(*dir))
	if err != nil {
		fmt.Fprintf(stderr, "agentvcr tool: %v\n", err)
		return 1
	}
	res := tools.Default(ws, lang).Execute(context.Background(), call)
	if !*asJSON {
		fmt.Fprintln(stdout, res.Content)
		return 0
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(toolJSON{
		OK: !res.IsError, Content: res.Content, Chars: res.Chars(),
		Truncated: res.Meta.Truncated, OriginalChars: res.Meta.OriginalChars,
	}); err != nil {
		fmt.Fprintf(stderr, "agentvcr tool: %v\n", err)
		return 1
	}
	return 0
}
