package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentvcr/agentvcr/internal/outfile"
	"github.com/agentvcr/agentvcr/wire"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/harness/quirk"
)

const caseUsage = `usage: agentvcr case new -id ID -doc TEXT -seen TEXT (-sse FILE | -cassette FILE [-turn N]) [-api API] [-o DIR]
       agentvcr case check DIR...
       agentvcr case ls DIR...

A case file (DIR/*.txtar) is a case of your own that conform -cases DIR
runs beside the catalog: its comment holds one field a line,

  id: acme_runes
  api: chat
  doc: no call ids and arguments one rune a piece, CRLF line ends
  seen: ACME gateway 2.3, ticket OPS-1432
  quirks: ids_dropped + args_one_rune + crlf

or, instead of quirks, a section -- turn.sse -- holding the stream a
gateway sent for the turn with the calls, captured. Two more fields,
given together, override the derived expectation: expect (benign or
broken) and reason (why, shown in the case's doc).

new writes DIR/ID.txtar (-o, default the current folder) from a captured
stream: a raw SSE body (-sse), or the answer of a cassette's turn N, as
record or proxy -o saved it (-cassette; by default the first turn our
merger refuses or warns about). It keeps the stream's body alone, refuses
one that holds a credential, and prints what the case will demand.

check reads every case file of the folders, each against its format's
catalog, and prints one line per problem (file and line); ls lists the
files with what each demands of an agent, derived from its quirks or
from what our merger makes of its captured stream:
benign (the merged calls re-sent, answered, the run finished) or broken
(nothing of the turn sent on, no exit 0), or "by the file" when its
expect overrides.

Exit status: 0 when every file is good; 1 when check found a problem;
2 on a usage error.
`

// cmdCase runs `agentvcr case`.
func cmdCase(env Env, args []string) int {
	if len(args) > 0 && args[0] == "new" {
		return cmdCaseNew(env, args[1:])
	}
	if len(args) == 0 || (args[0] != "check" && args[0] != "ls") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
			fs, _ := caseNewFlags()
			fs.SetOutput(env.Stdout)
			fmt.Fprint(env.Stdout, caseUsage+"\nnew's flags:\n")
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprint(env.Stderr, caseUsage)
		return 2
	}
	dirs := args[1:]
	if len(dirs) == 0 {
		fmt.Fprintf(env.Stderr, "agentvcr case %s: name the folders of case files, e.g. agentvcr case %s cases/\n", args[0], args[0])
		return 2
	}
	for i, d := range dirs {
		dirs[i] = env.path(d)
	}
	files, errs := conform.CheckCaseFiles(dirs)
	for _, err := range errs {
		fmt.Fprintf(env.Stderr, "agentvcr case %s: %v\n", args[0], err)
	}
	if args[0] == "ls" {
		width := 2
		for _, f := range files {
			width = max(width, len(f.Case.ID))
		}
		for _, f := range files {
			what := strings.Join(f.Quirks, quirk.Separator)
			if f.Case.Captured != nil {
				what = "captured " + conform.CapturedTurnFile
			}
			fmt.Fprintf(env.Stdout, "%-*s %-9s %-21s %s  %s\n", width, f.Case.ID, f.API, f.Derived(), what, f.Path)
		}
	} else if len(errs) == 0 {
		fmt.Fprintf(env.Stdout, "%d case file(s), all good\n", len(files))
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// caseNewInput is what the flags of `agentvcr case new` give.
type caseNewInput struct {
	fields                     conform.CaseFileFields
	sseFile, cassetteFile, dir string
	turn                       int
}

// caseNewFlags are the flags of `agentvcr case new`, parsed into in.
func caseNewFlags() (*flag.FlagSet, *caseNewInput) {
	fs := flag.NewFlagSet("case new", flag.ContinueOnError)
	in := &caseNewInput{}
	fs.StringVar(&in.fields.ID, "id", "", "the case's `ID`: lower-case letters, digits and underscores")
	fs.StringVar(&in.fields.Doc, "doc", "", "one line that says what the stream does (`TEXT`)")
	fs.StringVar(&in.fields.Seen, "seen", "", "where the stream was seen: the gateway, its version, a ticket (`TEXT`)")
	fs.StringVar(&in.fields.API, "api", "", "the stream's wire format (`API`; default: read from the stream)")
	fs.StringVar(&in.sseFile, "sse", "", "the captured stream, a raw SSE body (`FILE`)")
	fs.StringVar(&in.cassetteFile, "cassette", "", "a cassette written by record or proxy -o (`FILE`)")
	fs.IntVar(&in.turn, "turn", 0, "with -cassette: the `N`th recorded exchange (from 1; default the first our merger refuses or warns about)")
	fs.StringVar(&in.dir, "o", ".", "the folder of case files to write into (`DIR`, made when missing)")
	return fs, in
}

// cmdCaseNew runs `agentvcr case new`.
func cmdCaseNew(env Env, args []string) int {
	fs, in := caseNewFlags()
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, caseUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fields, sseFile, cassetteFile, dir, turn := in.fields, in.sseFile, in.cassetteFile, in.dir, in.turn
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agentvcr case new: "+format+"\n", a...)
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected argument %q: every input is a flag", fs.Arg(0))
	case fields.ID == "" || fields.Doc == "" || fields.Seen == "":
		return usage("give -id, -doc and -seen: they are the case's id, what it does, and where it was seen")
	case (sseFile == "") == (cassetteFile == ""):
		return usage("give the stream with -sse FILE or -cassette FILE, one of them")
	case turn != 0 && cassetteFile == "":
		return usage("-turn picks an exchange of a -cassette")
	case turn < 0:
		return usage("-turn %d: exchanges count from 1", turn)
	}
	var stream []byte
	var err error
	if sseFile != "" {
		if stream, err = os.ReadFile(env.path(sseFile)); err != nil {
			return usage("%v", err)
		}
	} else if stream, turn, err = conform.CassetteTurn(env.path(cassetteFile), turn); err != nil {
		return usage("%v", err)
	}
	if fields.API == "" {
		fields.API = wire.Detect(stream).Name
	}
	name := fields.ID + conform.CaseFileExt
	path := filepath.Join(env.path(dir), name)
	if _, err := os.Lstat(path); err == nil {
		return usage("%s exists: give the case another -id, or remove the file", path)
	}
	data, cf, err := conform.NewCaseFile(path, fields, stream)
	if err != nil {
		return usage("%v", err)
	}
	// -o names the folder the case files live in, made when it is new, as
	// the first case of a repository makes it.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return usage("%v", err)
	}
	out, err := outfile.Open(path)
	if err != nil {
		return usage("%v", err)
	}
	defer out.Close()
	if err := out.Write(func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return usage("%v", err)
	}
	from := sseFile
	if cassetteFile != "" {
		from = fmt.Sprintf("%s, exchange %d", cassetteFile, turn)
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s, from %s): %s\n", path, cf.API, from, demands(cf, stream))
	return 0
}

// demands says what a captured case demands of an agent, naming the calls
// our merger makes of the stream, or why it refuses it.
func demands(cf conform.CaseFile, stream []byte) string {
	format, err := wire.ByName(cf.API)
	if err != nil {
		return cf.Derived()
	}
	turn, err := format.Merge(bytes.NewReader(stream))
	if err != nil {
		return "broken: nothing of the turn may be sent on, and no exit 0 (our merger: " + err.Error() + ")"
	}
	var calls []string
	for _, tc := range turn.ToolCalls {
		calls = append(calls, tc.Function.Name+" "+tc.Function.Arguments)
	}
	return fmt.Sprintf("benign: %d call(s) re-sent as merged and answered, then the run finished: %s", len(calls), strings.Join(calls, "; "))
}
