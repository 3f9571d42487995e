// Package outfile writes the report files agentvcr makes (conform's
// -json, -junit and -md, report merge's and report md's outputs) by one
// rule, the one cassettes are saved by, made to hold while an agent runs
// in the same folders:
//
//   - Open, called before anything runs, opens the file's folder then
//     (an os.Root): a symbolic link planted in the folder's place later
//     (by the agent under test, say) is not followed, and the file lands
//     in the folder that was there when the run began.
//   - Write writes a temporary file beside the file (created anew, never
//     one that is there), syncs it and renames it over the file's name: a
//     symbolic link at that name is replaced, never written through, and a
//     reader sees the old file or the whole new one, never half of it.
//     A write that fails leaves no temporary file behind.
//
// The folder must exist when Open is called; a folder that is itself a
// symbolic link when Open opens it is followed once, as the user named it.
package outfile
