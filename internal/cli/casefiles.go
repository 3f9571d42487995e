package cli

import (
	"fmt"
	"strings"

	"github.com/agentvcr/agentvcr/harness/conform"
	"github.com/agentvcr/agentvcr/harness/quirk"
)

const caseUsage = `usage: agentvcr case check DIR...
       agentvcr case ls DIR...

A case file (DIR/*.txtar) is a case of your own that conform -cases DIR
runs beside the catalog: its comment holds one field a line,

  id: acme_runes
  api: chat
  doc: no call ids and arguments one rune a piece, CRLF line ends
  seen: ACME gateway 2.3, ticket OPS-1432
  quirks: ids_dropped + args_one_rune + crlf

or, instead of quirks, a section -- turn.sse -- holding the stream a
gateway sent for the turn with the calls, captured.

check reads every case file of the folders, each against its format's
catalog, and prints one line per problem (file and line); ls lists the
files with what each demands of an agent, derived from its quirks or
from what our merger makes of its captured stream:
benign (the merged calls re-sent, answered, the run finished) or broken
(nothing of the turn sent on, no exit 0).

Exit status: 0 when every file is good; 1 when check found a problem;
2 on a usage error.
`

// cmdCase runs `agentvcr case`.
func cmdCase(env Env, args []string) int {
	if len(args) == 0 || (args[0] != "check" && args[0] != "ls") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprint(env.Stdout, caseUsage)
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
