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
// first line of its diff that differs; a passing case shows none. What came
// from the agent is escaped (visible), and the table's own characters in it
// (|, <, >, newlines) cannot break the table.
func WriteMarkdown(w io.Writer, run RunInfo, results []Result) error {
	var b strings.Builder
	title := "agentvcr conform"
	if run.API != "" {
		title += " -api " + run.API
	}
	if run.Shard != "" {
		title += ", shard " + run.Shard
	}
	fmt.Fprintf(&b, "### %s\n\n", title)
	if run.Agent != "" {
		fmt.Fprintf(&b, "Agent: %s\n\n", mdCode(run.Agent))
	}
	b.WriteString("| case | verdict | first difference |\n|---|---|---|\n")
	for _, r := range results {
		verdict := string(r.Status)
		if r.Expected {
			verdict += " (baseline)"
		}
		if r.OtherProvider != "" && r.Status == Failure {
			verdict += " (" + r.OtherProvider + ")"
		}
		diff := ""
		if r.Status != Success {
			diff = mdText(r.Details)
			if line := firstChange(r.Diff); line != "" {
				diff += "<br>" + mdCode(line)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCode(r.Case.ID), verdict, diff)
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

// mdCell keeps a cell one cell: no pipe ends it, no newline breaks the
// row; mdTag also keeps a tag from opening outside a code span.
var (
	mdCell = strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "`", "'")
	mdTag  = strings.NewReplacer("<", "&lt;", ">", "&gt;")
)

// mdText is untrusted text made safe for a cell.
func mdText(s string) string { return mdTag.Replace(mdCell.Replace(visible(s))) }

// mdCode is text in a code span (where &lt; would show as such); a
// backtick inside it becomes ', as a code span cannot escape one.
func mdCode(s string) string { return "`" + mdCell.Replace(visible(s)) + "`" }
