package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strings"

	"github.com/agentvcr/agentvcr/agent"
	"github.com/agentvcr/agentvcr/wire"
)

// mergeUsage is merge's help; the format names come from package wire.
var mergeUsage = `usage: agentvcr merge [-api auto|` + strings.Join(wire.Names(), "|") + `] [FILE]

Merges a raw SSE stream (FILE, or standard input) into one turn and prints
it as one JSON line:
  {"text":"…","finish_reason":"…","tool_turn":true,"tool_calls":[{"id":"…","name":"…","arguments":"…"}]}
When the model sent reasoning, "thinking":[{"type":"…","text":"…"}] follows
"tool_calls"; a call that came with extra_content (Gemini's thought signature)
has it after "arguments", and a custom tool's call (freeform input, OpenAI
Responses) has "type":"custom" last. They are left out when there are none.
-api names the wire format (-format is the same flag); auto (the default)
reads it from the first event: each format knows its own events (Anthropic
Messages: message_start, content_block_*, ping; OpenAI Responses:
response.*; Gemini: a GenerateContentResponse, with candidates or
usageMetadata), and a stream no format claims is chat completions.
On a stream error it prints {"error":"…"} and exits 1.

flags:
  -api FORMAT
    	the stream's wire format: auto (default), ` + strings.Join(wire.Names(), ", ") + `
  -format FORMAT
    	the same as -api
`

// detectBytes is how much of the stream -api auto reads to decide.
const detectBytes = 64 << 10

// cmdMerge implements `agentvcr merge [FILE]`.
func cmdMerge(env Env, args []string) int {
	stdin, stdout, stderr := env.Stdin, env.Stdout, env.Stderr
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	format := fs.String("api", "auto", "")
	fs.StringVar(format, "format", "auto", "")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, mergeUsage)
			return 0
		}
		fmt.Fprint(stderr, mergeUsage)
		return 2
	}
	var api *agent.Format
	if *format != "auto" {
		var err error
		if api, err = wire.ByName(*format); err != nil {
			fmt.Fprintf(stderr, "agentvcr merge: -api: %v\n\n%s", err, mergeUsage)
			return 2
		}
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "agentvcr merge: too many arguments (want at most one FILE)\n\n%s", mergeUsage)
		return 2
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
	if api == nil {
		var head []byte
		head, in = readHead(in, detectBytes) // a shorter stream is all there is to look at
		api = wire.Detect(head)
	}
	turn, err := api.Merge(in)
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

// readHead reads the first n bytes of r (fewer when it ends or fails
// first) for -api auto to look at, and returns them with a reader of the
// whole stream: the head, then the rest of r, or the error r gave. The
// merger reads the rest straight from r, not through a second buffer.
func readHead(r io.Reader, n int) ([]byte, io.Reader) {
	head := make([]byte, n)
	got, empty := 0, 0
	var err error
	for got < n && err == nil {
		var k int
		k, err = r.Read(head[got:])
		got += k
		if k > 0 || err != nil {
			empty = 0
		} else if empty++; empty == 100 {
			err = io.ErrNoProgress
		}
	}
	head = head[:got]
	if err != nil {
		return head, io.MultiReader(bytes.NewReader(head), failedReader{err})
	}
	return head, io.MultiReader(bytes.NewReader(head), r)
}

// failedReader is a stream that has ended with err (io.EOF for its end).
type failedReader struct{ err error }

func (f failedReader) Read([]byte) (int, error) { return 0, f.err }
