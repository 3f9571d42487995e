package conform

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Widths of the table's columns, in runes; longer cells are cut with "…".
const (
	sourceWidth  = 44
	diffMaxLines = 12
)

// WriteTable writes the terminal report: for each tier, one row per case
// (case | where the shape was seen | verdict | details), the first
// difference as a diff under a failing row, then one line of totals. What
// came from the agent is escaped (visible).
func WriteTable(w io.Writer, results []Result) error {
	caseWidth := len("case")
	for _, r := range results {
		caseWidth = max(caseWidth, utf8.RuneCountInString(r.Case.ID))
	}
	var b strings.Builder
	row := func(id, source, verdict, details string) {
		line := fmt.Sprintf("%s  %s  %-18s  %s", pad(id, caseWidth), pad(cut(source, sourceWidth), sourceWidth), verdict, visible(details))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	tier := Tier("")
	for _, r := range results {
		if r.Case.Tier != tier {
			if tier != "" {
				b.WriteString("\n")
			}
			tier = r.Case.Tier
			fmt.Fprintf(&b, "%s cases\n", tier)
			row("case", "seen in", "verdict", "details (and the first difference, -want +got)")
		}
		verdict := string(r.Status)
		if r.Expected {
			verdict += " (baseline)"
		}
		if r.OtherProvider != "" && r.Status == Failure {
			verdict += " (" + r.OtherProvider + ")"
		}
		row(r.Case.ID, r.Case.Source, verdict, r.Details)
		if r.Diff != "" && r.Status != Success {
			lines := strings.Split(strings.TrimRight(r.Diff, "\n"), "\n")
			if len(lines) > diffMaxLines {
				lines = append(lines[:diffMaxLines], fmt.Sprintf("… %d more lines", len(lines)-diffMaxLines))
			}
			for _, l := range lines {
				b.WriteString("      " + strings.TrimRight(visible(l), " ") + "\n")
			}
		}
	}
	b.WriteString("\n" + Totals(results) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Totals is one line: how many cases, and how many of each status.
func Totals(results []Result) string {
	counts := map[Status]int{}
	expected, vacuous := 0, 0
	for _, r := range results {
		counts[r.Status]++
		if r.Expected {
			expected++
		}
		if r.Vacuous {
			vacuous++
		}
	}
	s := fmt.Sprintf("%d cases: %d SUCCESS, %d FAILURE", len(results), counts[Success], counts[Failure])
	if expected > 0 {
		s += fmt.Sprintf(" (%d in the baseline)", expected)
	}
	s += fmt.Sprintf(", %d WARNING, %d SKIPPED", counts[Warning], counts[Skipped])
	if vacuous > 0 {
		s += fmt.Sprintf(" (%d vacuous: the probe's calls carry no arguments)", vacuous)
	}
	return s
}

func pad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

func cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}
