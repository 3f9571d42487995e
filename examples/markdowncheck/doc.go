// Package markdowncheck renders what `agentvcr report md` writes with a
// CommonMark renderer, goldmark (its own module, so that agentvcr's module
// takes no new dependency), and checks that an agent's text cannot change
// the page: no link, image or HTML of the agent's, no row or cell it
// added, every text shown as it was sent.
//
// The test writes a JSON report as conform -json does, holding hostile
// details, diffs and an agent's command line, runs `agentvcr report md`
// on it in process, renders the Markdown twice (CommonMark with the GFM
// table extension, then with all of GFM: autolinks, strikethrough, task
// lists) with raw HTML let through, and reads the HTML back: the only
// tags are the table's, the heading's, code, p and br; each row has its
// three cells; each code span holds the text as sent.
//
// Run it with `go test ./...` in this folder; .ci/run does.
package markdowncheck
