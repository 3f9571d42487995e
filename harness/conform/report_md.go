package conform

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as a Markdown table for a CI job's
// summary ($GITHUB_STEP_SUMMARY): a heading naming the run, one row per
// case (case, verdict, the first difference), then the totals. The first
// difference is the details line of a case that did not pass, with the
// first line of its diff that differs; a passing case shows none.
//
// Every text that may come from the agent (its command line, the details,
// which quote its stderr and what it sent, the diff) is written as a code
// span (mdCode), which CommonMark and GitHub render as it is: no link,
// image, emphasis, entity or HTML inside. The other words (format, shard,
// verdict, provider) are escaped (mdPlain). Neither can end its cell, add
// a row or start a line of its own.
func WriteMarkdown(w io.Writer, run RunInfo, results []Result) error {
	var b strings.Builder
	title := "agentvcr conform"
	if run.API != "" {
		title += " -api " + mdPlain(run.API)
	}
	if run.Shard != "" {
		title += ", shard " + mdPlain(run.Shard)
	}
	fmt.Fprintf(&b, "### %s\n\n", title)
	if run.Agent != "" {
		fmt.Fprintf(&b, "Agent: %s\n\n", mdCode(run.Agent))
	}
	b.WriteString("| case | verdict | first difference |\n|---|---|---|\n")
	for _, r := range results {
		verdict := mdPlain(string(r.Status))
		if r.Expected {
			verdict += " (baseline)"
		}
		if r.OtherProvider != "" && r.Status == Failure {
			verdict += " (" + mdPlain(r.OtherProvider) + ")"
		}
		diff := ""
		if r.Status != Success {
			diff = mdCellCode(r.Details)
			if line := firstChange(r.Diff); line != "" {
				diff = strings.TrimPrefix(diff+"<br>"+mdCellCode(line), "<br>")
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCellCode(r.Case.ID), verdict, diff)
	}
	b.WriteString("\n" + Totals(results) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// firstChange is the first line of a -want +got diff that differs.
func firstChange(diff string) string {
	for _, l := range strings.Split(diff, "\n") {
		if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// mdPunct is CommonMark's ASCII punctuation but '/'.
const mdPunct = "!\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~"

// mdPlain is a word made safe for a heading or a cell: visible (one
// line, no control character), and a backslash before every ASCII
// punctuation character but '/' (CommonMark takes an escaped one as
// itself), so that none opens a link, an image, emphasis, a code span, an
// entity or HTML, or ends a cell ('|'). '/' opens nothing: a shard stays
// "2/3".
func mdPlain(s string) string {
	var b strings.Builder
	for _, r := range visible(s) {
		if strings.ContainsRune(mdPunct, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is text in a code span, shown as it is but for what visible
// escapes (a newline shows as \n: a row is one line), or "" for no text
// (two backticks alone are no code span). CommonMark closes a code span only with a
// backtick run as long as the one that opened it: the fence is one
// backtick longer than the longest run inside. One space pads both ends
// when the text starts or ends with a backtick (else it would join the
// fence) or starts and ends with a space (the one space CommonMark strips
// from each end is the padding's).
func mdCode(s string) string {
	s = visible(s)
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdCellCode is mdCode for a table's cell, each pipe written \|: GFM's
// tables split a row at every pipe not so escaped, code spans included,
// and give the cell's code span the pipe alone.
func mdCellCode(s string) string { return strings.ReplaceAll(mdCode(s), "|", `\|`) }
