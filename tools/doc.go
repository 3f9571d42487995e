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
//   - Default registers the three read-only tools, one file each with its
//     description beside it: read_file.go, glob.go, grep.go. They read only
//     inside a Workspace: every path is resolved through symlinks and must be
//     the root or below root plus a separator; files are opened through
//     os.Root, and only regular files are opened. Memory is bounded by what a
//     tool returns, whatever the size of a file.
//   - Every model-facing text exists in the two locales, zh (default,
//     the lesson's exact strings) and en: texts_zh.go and texts_en.go. The
//     definitions as sent to the model are kept in testdata/definitions.*.golden.json.
package tools
