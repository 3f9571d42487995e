package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
)

const mergeUsageText = `usage: agentvcr merge [-format auto|FORMAT] [FILE]

Merges a raw SSE stream (FILE, or standard input) into one turn and prints
it as one JSON line:
  {"text":"…","finish_reason":"…","tool_turn":true,"tool_calls":[{"id":"…","name":"…","arguments":"…"}]}
"warnings":[…] follows "tool_calls" when the merger worked around a broken
shape. When the model sent reasoning, "thinking":[{"type":"…","text":"…"}]
comes after them; a call that came with extra_content (Gemini's thought
signature) has it after "arguments". Each is left out when there is none.
On a stream error it prints {"error":"…"} and exits 1.

flags:
  -format F
    	the wire format: auto (the default) or one of %s; auto tells it
    	from the stream's first events (chat completions when nothing else fits)
`

// mergeHead is how much of a stream -format auto looks at.
const mergeHead = 64 << 10

// cmdMerge implements `agentvcr merge [FILE]`.
func cmdMerge(env Env, args []string) int {
	stdin, stdout, stderr := env.Stdin, env.Stdout, env.Stderr
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	format := fs.String("format", "auto", "")
	usage := mergeUsage()
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "agentvcr merge: too many arguments (want at most one FILE)\n\n%s", usage)
		return 2
	}
	var api *agent.API
	if *format != "auto" {
		var err error
		if api, err = agent.APIByName(*format); err != nil {
			fmt.Fprintf(stderr, "agentvcr merge: -format: %v\n", err)
			return 2
		}
	}
	in := stdin
	if fs.NArg() == 1 {
		f, err := os.Open(env.path(fs.Arg(0)))
		var pe *iofs.PathError
		if errors.As(err, &pe) {
			pe.Path = fs.Arg(0) // the path as the user wrote it
		}
		if err != nil {
			fmt.Fprintf(stderr, "agentvcr merge: %v\n", err)
			return 1
		}
		defer f.Close()
		in = f
	}
	br := bufio.NewReaderSize(in, mergeHead)
	if api == nil {
		head, _ := br.Peek(mergeHead) // a shorter stream is all there; a read error comes again below
		api = agent.DetectAPI(head)
	}
	turn, err := api.Merge(br)
	if werr := writeSummary(stdout, turn, err); werr != nil {
		fmt.Fprintf(stderr, "agentvcr merge: writing output: %v\n", werr)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentvcr merge: %v\n", err)
		return 1
	}
	return 0
}

// mergeUsage is the merge command's usage text, naming the formats.
func mergeUsage() string {
	return fmt.Sprintf(mergeUsageText, apiNames())
}

// apiNames lists the wire formats' names: "chat, responses".
func apiNames() string {
	var names []string
	for _, a := range agent.APIs() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}
