// Package tools holds the agent's tools and the one entry that runs them.
//
// Contract:
//   - A Tool is what the model sees (Name, Description, Parameters as JSON
//     Schema), a field for ourselves (ReadOnly) and its code (Run). A Registry
//     lists the tools as wire Definitions, sorted by name, and runs calls.
//   - Registry.Execute is the only way a call runs. It always returns a
//     Result and never panics or returns an error: an unknown tool, arguments
//     that are not JSON, arguments that break the schema (missing, wrong type,
//     out of bounds, unknown property), a tool error and a tool panic all
//     become failure results (IsError) whose text says exactly what to fix,
//     without stack traces or absolute host paths.
//   - Every result, failures included, goes through Truncate: at most
//     MaxResultChars (8000) runes, else the first 4800 and last 3200 runes
//     around a note saying how much was removed. Result.Meta (Truncated,
//     OriginalChars) is for the terminal and is never fed back to the model.
//   - The schema validator covers exactly the subset the schemas use (object,
//     typed properties, required, additionalProperties false, minimum,
//     maximum, minLength); Register refuses any other keyword.
//   - Default registers the three read-only tools, one file each:
//     read_file.go, glob.go, grep.go. Their descriptions, like every
//     model-facing text, live in the locale files (below). They read only
//     inside a Workspace: every path is resolved through symlinks and must be
//     the root or below root plus a separator; files are opened through
//     os.Root, and only regular files are opened. Memory is bounded by what a
//     tool returns, whatever the size of a file.
//   - Every limit (400 lines per read, 500 runes per line, 200 paths, 50
//     hits, 120 runes per hit, 8000 runes per result) is a constant in
//     limits.go; the schemas' bounds and the texts are filled in from it. A
//     read_file limit above 400 reads 400 lines and says so next to where to
//     continue, rather than failing.
//   - Byte budgets bound what one call reads, whatever the files hold (a
//     sparse file of 8 KB of text and a 1 TiB hole reads as endless zeros):
//     grep searches at most 64 MiB of each file and starts no file after
//     1 GiB read in all; read_file reads at most 64 MiB to reach and read
//     the lines asked for, and 16 MiB more to count the file's lines (past
//     that the header says "at least"). When a budget stops the work, the
//     result says so: which budget, how much, and where it stopped. glob
//     reads no file contents.
//   - Cancellation: every tool checks its context in every folder it walks,
//     before every file and between buffers inside a file (including
//     inside a line that never ends), so a canceled call ends promptly with
//     the failure text "canceled".
//   - glob's pattern runs as an automaton over pattern positions: time
//     linear in path length x pattern length, whatever the number of "**".
//     A pattern with no match reads each folder once to count the files.
//   - grep finds the literals every match must hold (from the parsed
//     pattern) with a substring search over a whole buffer of complete
//     lines and runs the regular expression (RE2, linear time) only on the
//     lines that hold one; without such a literal it matches every line.
//     A (?i) literal is searched without regard to ASCII case on its
//     longest piece whose letters have no spelling outside ASCII (k has
//     the Kelvin sign, s the long s: they end the piece), so the search
//     never misses a line RE2 would match (grep_fold.go).
//     Files are searched by parallel workers and their hits taken back in
//     path order, so the output is the same whatever the number of workers;
//     the search stops at the first hit past the limit.
//   - A path that one line of output could not carry unambiguously (a
//     colon, a line break or other control, bytes that are not UTF-8, a
//     leading double quote) is written as a Go quoted string, and read_file
//     reads such a quoted path back (pathname.go): a file name cannot forge
//     a grep hit or split a glob entry, and every listed file can be read.
//   - Every model-facing text exists in the two locales, zh (the default,
//     the lesson's exact strings) and en: texts_zh.go and texts_en.go. The definitions as sent to the
//     model are kept in testdata/definitions.*.golden.json.
package tools
